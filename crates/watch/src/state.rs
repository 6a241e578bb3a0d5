//! The watch's state that no stored page tells, kept in the store beside the pages.
//!
//! The lists and what the policy learned from pages are rebuilt from the pages; what is not is
//! where the run stood in its plan: the window it was planning and its place in the day, the
//! fetches planned and not yet made (the page in flight at a kill among them), when the portal
//! is next read for new boards and the pages its last read found, and the policy's own state ([`trawl_schedule::Policy::
//! saved_state`]: the budget it carried, the follow-ups waiting for budget, when each list is
//! next due). It is written in the same transaction as each page the watch stores, so it always
//! describes the store as it is; `pages` says how many pages the store held then, and a state
//! whose count is not the store's (a crawl resumed into the store since) is not taken back.
//!
//! Two lines serve readers of the store rather than the watch's restart (the freshness views,
//! [`crate::snapshot`]): how many pages the store held when the first watch began, which tells
//! the watch's fetches from the crawl's, and the forum's offset from UTC, which turns the post
//! times stored as the forum shows them into instants without reading the portal's body again.
//! Both are optional, so a state written before they existed still reads.

use jiff::Timestamp;
use trawl_schedule::{ListId, PageRequest};

/// The name the state is stored under (`Store::document`).
pub(crate) const DOCUMENT_NAME: &str = "watch";

const FORMAT: &str = "trawl-watch-state 1";

/// The line after which the policy's own state follows, verbatim.
const POLICY_MARK: &str = "policy-state";

/// Where a watch run stood after a page it stored.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct WatchState {
    /// Pages the store held once that page was written.
    pub(crate) pages: usize,
    /// The start of the next window to plan (Unix seconds), and how many windows were planned
    /// before it (its place in the day's budget).
    pub(crate) window_start: i64,
    pub(crate) window_index: u64,
    /// Fetches planned (or granted as follow-ups) and not yet made, in order.
    pub(crate) queue: Vec<PageRequest>,
    /// When the portal is next read for boards created since (Unix seconds).
    pub(crate) next_portal_read: i64,
    /// Fetches made outside the policy's plan (portal reads, pages they found) and not yet
    /// taken from a window's budget.
    pub(crate) spent_outside_plan: u32,
    /// Pages a read of the portal found that no list knows, to fetch first.
    pub(crate) discoveries: Vec<String>,
    /// Pages the store held when the first watch of it began, when known (a state written
    /// before this line existed does not say).
    pub(crate) crawl_pages: Option<usize>,
    /// The forum's offset from UTC in seconds, when its pages state one.
    pub(crate) forum_offset: Option<i32>,
    /// The policy's state, as it wrote it.
    pub(crate) policy: String,
}

impl WatchState {
    pub(crate) fn to_text(&self) -> String {
        let mut text = format!(
            "{FORMAT}\npages {}\nwindow {} {}\nportal-read {} {}\n",
            self.pages,
            self.window_start,
            self.window_index,
            self.next_portal_read,
            self.spent_outside_plan
        );
        if let Some(pages) = self.crawl_pages {
            text.push_str(&format!("crawl-pages {pages}\n"));
        }
        if let Some(offset) = self.forum_offset {
            text.push_str(&format!("forum-offset {offset}\n"));
        }
        for url in &self.discoveries {
            text.push_str(&format!("discover {url}\n"));
        }
        for request in &self.queue {
            text.push_str(&format!(
                "request {} {} {}\n",
                request.at, request.list.0, request.page
            ));
        }
        text.push_str(POLICY_MARK);
        text.push('\n');
        text.push_str(&self.policy);
        text
    }

    /// Reads a state back; `None` for text of another format or damaged, which a watch treats
    /// as no state at all (it starts afresh, as before states were kept).
    pub(crate) fn from_text(text: &str) -> Option<WatchState> {
        let (head, policy) = text.split_once(&format!("\n{POLICY_MARK}\n"))?;
        let mut lines = head.lines();
        if lines.next()? != FORMAT {
            return None;
        }
        let mut state = WatchState {
            pages: 0,
            window_start: 0,
            window_index: 0,
            queue: Vec::new(),
            next_portal_read: 0,
            spent_outside_plan: 0,
            discoveries: Vec::new(),
            crawl_pages: None,
            forum_offset: None,
            policy: policy.to_string(),
        };
        let mut seen = [false; 3];
        for line in lines {
            let fields: Vec<&str> = line.split(' ').collect();
            match fields.as_slice() {
                ["pages", pages] => {
                    state.pages = pages.parse().ok()?;
                    seen[0] = true;
                }
                ["window", start, index] => {
                    state.window_start = start.parse().ok()?;
                    state.window_index = index.parse().ok()?;
                    seen[1] = true;
                }
                ["portal-read", at, spent] => {
                    state.next_portal_read = at.parse().ok()?;
                    state.spent_outside_plan = spent.parse().ok()?;
                    seen[2] = true;
                }
                ["crawl-pages", pages] => state.crawl_pages = Some(pages.parse().ok()?),
                ["forum-offset", offset] => state.forum_offset = Some(offset.parse().ok()?),
                // A URL holds no space (the crawler's URLs are parsed and serialised).
                ["discover", url] => state.discoveries.push(url.to_string()),
                ["request", at, list, page] => state.queue.push(PageRequest {
                    at: at.parse::<Timestamp>().ok()?,
                    list: ListId(list.parse().ok()?),
                    page: page.parse().ok()?,
                }),
                _ => return None,
            }
        }
        seen.iter().all(|&line_seen| line_seen).then_some(state)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn state() -> WatchState {
        WatchState {
            pages: 812,
            window_start: 1_700_003_600,
            window_index: 13,
            queue: vec![
                PageRequest {
                    at: "2023-11-14T23:13:20.123456789Z".parse().unwrap(),
                    list: ListId(u64::MAX),
                    page: 1,
                },
                PageRequest {
                    at: "2023-11-14T23:20:00Z".parse().unwrap(),
                    list: ListId(42),
                    page: 7,
                },
            ],
            next_portal_read: 1_700_010_000,
            spent_outside_plan: 3,
            discoveries: vec!["http://forum.test/viewforum.php?f=9".to_string()],
            crawl_pages: Some(640),
            forum_offset: Some(-18_000),
            policy: "trawl-schedule-state 1\npolicy trawl\ncredit 1 3ff0000000000000\n".to_string(),
        }
    }

    /// `text` reads back as `expected`.
    fn check(text: &str, expected: Option<WatchState>) {
        assert_eq!(WatchState::from_text(text), expected, "{text}");
    }

    #[test]
    fn a_state_reads_back_whole_and_damaged_text_is_no_state() {
        let text = state().to_text();
        check(&text, Some(state()));
        let empty_queue = WatchState {
            queue: Vec::new(),
            ..state()
        };
        check(&empty_queue.to_text(), Some(empty_queue));
        check(
            &text.replace("trawl-watch-state 1", "trawl-watch-state 2"),
            None,
        );
        check(
            &text.replace("request 2023-11-14T23:20:00Z", "request later"),
            None,
        );
        check(&text.replace("window 1700003600 13\n", ""), None);
        check(&text.replace("policy-state\n", ""), None);
        check(&text.replace("portal-read 1700010000 3\n", ""), None);
        check(
            &text.replace("crawl-pages 640\n", "crawl-pages many\n"),
            None,
        );
    }

    #[test]
    fn a_state_from_before_the_readers_lines_still_reads() {
        let text = state()
            .to_text()
            .replace("crawl-pages 640\n", "")
            .replace("forum-offset -18000\n", "");
        check(
            &text,
            Some(WatchState {
                crawl_pages: None,
                forum_offset: None,
                ..state()
            }),
        );
    }
}
