//! Reading a stored page into the scheduler: the same for a page just fetched and for a page
//! read back from the store after a restart, so that the rebuilt scheduler learns what the
//! interrupted run learned.

use trawl_crawl::Crawler;
use trawl_schedule::{FetchedPage, ListChange, ListId, ListKind, Scheduler, SiteId};
use trawl_store::PageRecord;
use url::Url;

use crate::list_urls::ListUrls;
use crate::pages::{fetched_page, thread_entry};

/// The parts of a watch that read a stored page into the scheduler, borrowed apart from the
/// store so that pages can be read while the store streams them.
pub(crate) struct StoredReader<'parts> {
    pub(crate) crawler: &'parts Crawler,
    pub(crate) urls: &'parts mut ListUrls,
    pub(crate) scheduler: &'parts mut Scheduler,
    pub(crate) owed: &'parts mut Vec<(ListId, u32)>,
    pub(crate) forum_offset: Option<i32>,
}

impl StoredReader<'_> {
    /// What a stored page tells the scheduler, or `None` for a page of no list (the portal, a
    /// member page). Both live pages and pages read back after a restart come through here.
    pub(crate) fn read(&mut self, record: &PageRecord) -> Option<FetchedPage> {
        let (list, page) = self.urls.page_of(&record.url)?;
        let kind = self.urls.kind(list)?;
        let page_count = self.urls.extend(list, &record.list_links).max(page);
        let mut entries = Vec::new();
        if kind == ListKind::Index {
            for entry in &record.thread_entries {
                let Ok(mut url) = Url::parse(&entry.url) else {
                    continue;
                };
                url.set_fragment(None);
                let spelling = self.crawler.queued_spelling(&url);
                let Some(thread) = self.urls.thread_at(spelling.as_str()) else {
                    continue;
                };
                if entries
                    .iter()
                    .any(|known: &trawl_schedule::ThreadEntry| known.thread == thread)
                {
                    continue;
                }
                entries.push(thread_entry(
                    thread,
                    entry.last_reply.as_deref(),
                    entry.replies,
                    self.forum_offset,
                ));
            }
        }
        let lists = self.scheduler.lists_mut();
        if lists.get(list).is_none() {
            match kind {
                ListKind::Index => lists.add_index_list(list, SiteId(0)),
                // A thread reached other than from a board's list (a portal's latest threads).
                ListKind::Post => lists.add_post_list(list, SiteId(0), None),
            }
        }
        Some(fetched_page(
            record,
            list,
            kind,
            page,
            page_count,
            entries,
            self.forum_offset,
        ))
    }

    /// Notes what a page read back from the store would have had fetched at once, and settles
    /// what it fetched itself. Follow-ups the interrupted run was granted and never fetched are
    /// owed to the next; pages never fetched at all are in the scheduler's backlog already.
    pub(crate) fn owe_after(&mut self, fetched: &FetchedPage, change: &ListChange) {
        self.owed
            .retain(|&owed| owed != (fetched.list, fetched.page));
        let lists = self.scheduler.lists();
        let mut owe = Vec::new();
        for &thread in &change.changed_threads {
            if let Some(state) = lists.get(thread) {
                owe.push((thread, state.page_count));
            }
        }
        if let Some(state) = lists.get(fetched.list) {
            let has_next = fetched.page < state.page_count;
            match state.kind {
                ListKind::Index if change.moved_past_page && has_next => {
                    owe.push((fetched.list, fetched.page + 1));
                }
                // The next page of a thread, unless it was read full (the policies' discovery
                // rule): the posts added since it was read are there.
                ListKind::Post if has_next => {
                    let next_read_full = state.page_seen(fetched.page + 1).is_some_and(|seen| {
                        seen.fetched_at.is_some() && seen.records >= state.records_per_page.max(1)
                    });
                    if !next_read_full {
                        owe.push((fetched.list, fetched.page + 1));
                    }
                }
                _ => {}
            }
        }
        for page in owe {
            if !self.owed.contains(&page) {
                self.owed.push(page);
            }
        }
    }
}
