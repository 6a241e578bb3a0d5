//! A stored page as the scheduler reads it: its list, its page number, and the record times it
//! showed.
//!
//! Live pages and pages read back from the store after a restart go through the same functions,
//! from the same [`PageRecord`], so the scheduler rebuilt from the store learns exactly what the
//! interrupted run learned.

use jiff::Timestamp;
use jiff::civil::DateTime;
use jiff::tz::{Offset, TimeZone};
use trawl_schedule::{FetchedPage, ListId, ListKind, PageContent, ThreadEntry, infer_pins};
use trawl_store::PageRecord;

/// The instant a stored time stands for. Page analysis stores times as the page shows them
/// (`2025-03-30T22:11`, with `+02:00` only when the page named its zone), on the forum's clock;
/// `forum_offset` is that clock's offset from UTC in seconds, UTC when the forum never said.
/// A time given only to the day or the month says too little to schedule by and gives `None`.
pub(crate) fn instant_of(stored: &str, forum_offset: Option<i32>) -> Option<Timestamp> {
    let (_, clock) = stored.split_once('T')?;
    let (local, offset) = match clock.rfind(['+', '-']) {
        Some(sign) => {
            let split = stored.len() - clock.len() + sign;
            let (local, offset) = stored.split_at(split);
            (local, Some(offset_seconds(offset)?))
        }
        None => (stored, None),
    };
    let local: DateTime = local.parse().ok()?;
    let seconds = offset.or(forum_offset).unwrap_or(0);
    let zone = TimeZone::fixed(Offset::from_seconds(seconds).ok()?);
    local.to_zoned(zone).ok().map(|zoned| zoned.timestamp())
}

/// `+02:00` or `-05:30` in seconds east of UTC.
fn offset_seconds(text: &str) -> Option<i32> {
    let sign = match text.as_bytes().first()? {
        b'+' => 1,
        b'-' => -1,
        _ => return None,
    };
    let (hours, minutes) = text[1..].split_once(':')?;
    let hours: i32 = hours.parse().ok()?;
    let minutes: i32 = minutes.parse().ok()?;
    Some(sign * (hours * 3600 + minutes * 60))
}

/// What the scheduler is told of one fetched page of `list`: `page` of `page_count` known, the
/// post times of a thread page, or the entries of a board page (`entries`, already named by their
/// threads' lists). A page that did not answer 200 taught nothing and counts as a failed visit.
pub(crate) fn fetched_page(
    record: &PageRecord,
    list: ListId,
    kind: ListKind,
    page: u32,
    page_count: u32,
    entries: Vec<ThreadEntry>,
    forum_offset: Option<i32>,
) -> FetchedPage {
    let answered = record.status == 200 && record.error.is_none();
    let content = match kind {
        _ if !answered => PageContent::Failed,
        ListKind::Post => PageContent::Posts(
            record
                .posts
                .iter()
                .filter_map(|post| instant_of(post.time.as_deref()?, forum_offset))
                .collect(),
        ),
        ListKind::Index => {
            let mut entries = entries;
            infer_pins(&mut entries);
            PageContent::Entries(entries)
        }
    };
    FetchedPage {
        list,
        page,
        fetched_at: record.fetched_at,
        page_count: answered.then_some(page_count.max(page)),
        content,
    }
}

/// A board's entry for the thread `thread`, with what the stored entry shows of its activity.
pub(crate) fn thread_entry(
    thread: ListId,
    last_reply: Option<&str>,
    replies: Option<u64>,
    forum_offset: Option<i32>,
) -> ThreadEntry {
    ThreadEntry {
        thread,
        started_at: None,
        last_post_at: last_reply.and_then(|time| instant_of(time, forum_offset)),
        replies: replies.map(|count| count.min(u64::from(u32::MAX)) as u32),
        pages: None,
        pinned: false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `stored` read on a forum at `offset` gives `expected` (RFC 3339) or nothing.
    fn check(stored: &str, offset: Option<i32>, expected: Option<&str>) {
        let got = instant_of(stored, offset).map(|instant| instant.to_string());
        assert_eq!(got.as_deref(), expected, "{stored} at {offset:?}");
    }

    #[test]
    fn stored_times_are_read_on_the_forums_clock_unless_they_name_their_own() {
        check("2025-03-30T22:11", None, Some("2025-03-30T22:11:00Z"));
        check("2025-03-30T22:11:05", None, Some("2025-03-30T22:11:05Z"));
        check("2025-03-30T22:11", Some(3600), Some("2025-03-30T21:11:00Z"));
        check(
            "2025-03-30T22:11",
            Some(-18_000),
            Some("2025-03-31T03:11:00Z"),
        );
        // An offset the page named wins over the forum's.
        check(
            "2025-03-30T22:11+02:00",
            Some(3600),
            Some("2025-03-30T20:11:00Z"),
        );
        check(
            "2025-03-30T22:11:05-05:30",
            None,
            Some("2025-03-31T03:41:05Z"),
        );
        // Days and months alone are too coarse; nonsense is nothing.
        check("2025-03-30", Some(3600), None);
        check("2025-03", None, None);
        check("yesterday", None, None);
    }

    #[test]
    fn a_page_that_did_not_answer_is_a_failed_visit() {
        let record = PageRecord {
            status: 404,
            ..PageRecord::default()
        };
        let page = fetched_page(&record, ListId(7), ListKind::Post, 2, 3, Vec::new(), None);
        assert_eq!(page.content, PageContent::Failed);
        assert_eq!(page.page_count, None);
        let answered = PageRecord {
            status: 200,
            posts: vec![trawl_store::PostRecord {
                time: Some("2025-03-30T22:11".to_string()),
                ..trawl_store::PostRecord::default()
            }],
            ..PageRecord::default()
        };
        let page = fetched_page(&answered, ListId(7), ListKind::Post, 2, 1, Vec::new(), None);
        assert_eq!(page.page_count, Some(2));
        assert_eq!(
            page.content,
            PageContent::Posts(vec!["2025-03-30T22:11:00Z".parse().unwrap()])
        );
    }
}
