//! Boards created after the crawl. A board's list shows every thread of the board, so polling
//! boards finds every new thread; a new board, though, is shown only by the board index (the
//! portal), which no policy polls, since it is no list. The watch reads the portal again a few
//! times a day (`WatchConfig::portal_reads_per_day`), takes what the crawler finds there that
//! it never saw (the plan follows board links from the portal as it did in the crawl), fetches
//! it at once, and watches a board list or a thread found so as a list from then on. Those
//! fetches are no part of the policy's plan and are taken from the budget of the next window.

use trawl_learn::sitemap::Role;
use trawl_model::Fetcher;
use trawl_store::FetchOutcome;
use url::Url;

use crate::list_urls::kind_of_role;
use crate::{DAY, Watch, WatchError, WatchHooks};

impl<F: Fetcher> Watch<'_, F> {
    /// Seconds between two reads of the portal.
    pub(crate) fn portal_read_interval(&self) -> i64 {
        DAY / i64::from(self.config.portal_reads_per_day.max(1))
    }

    /// When the portal is next read, if that is at or before `second`.
    pub(crate) fn portal_due_by(&self, second: i64) -> Option<i64> {
        self.next_portal_read.filter(|&due| due <= second)
    }

    /// Reads the portal now and notes the pages it links that the crawler never saw; `false`
    /// when a hook stopped the run with the page in flight.
    pub(crate) fn read_portal(&mut self, hooks: &mut dyn WatchHooks) -> Result<bool, WatchError> {
        let interval = self.portal_read_interval();
        let now = self.clock.now().as_second();
        let due = self.next_portal_read.unwrap_or(now);
        // Reads stay on their grid unless the run fell a whole interval behind.
        let next = if now >= due + interval { now } else { due } + interval;
        let Some(outcome) = self.fetch(self.portal.clone(), hooks) else {
            return Ok(false);
        };
        self.next_portal_read = Some(next);
        self.note_discoveries(&outcome);
        self.spent_outside_plan += 1;
        self.store_page(&outcome, hooks)?;
        Ok(true)
    }

    /// The pages the crawler queued from a page that are in no list, to fetch first.
    fn note_discoveries(&mut self, outcome: &FetchOutcome) {
        for entry in &outcome.queued {
            if self.urls.page_of(&entry.url).is_none() && !self.discoveries.contains(&entry.url) {
                self.discoveries.push_back(entry.url.clone());
            }
        }
    }

    /// Fetches the first page a read of the portal found. A board's list page or a thread page
    /// becomes a list watched from now on (a new board's threads are new threads, fetched as
    /// the policy's follow-ups); a page of no list (a category's board index) is read for what
    /// it links in turn. `false` when a hook stopped the run with the page in flight.
    pub(crate) fn discover(&mut self, hooks: &mut dyn WatchHooks) -> Result<bool, WatchError> {
        let Some(text) = self.discoveries.front().cloned() else {
            return Ok(true);
        };
        let Ok(url) = Url::parse(&text) else {
            self.discoveries.pop_front();
            return Ok(true);
        };
        let Some(outcome) = self.fetch(url, hooks) else {
            return Ok(false);
        };
        self.discoveries.pop_front();
        self.spent_outside_plan += 1;
        let page = &outcome.page;
        let kind = page
            .role
            .as_deref()
            .and_then(Role::from_name)
            .and_then(kind_of_role);
        match kind {
            Some(kind) if page.status == 200 && page.error.is_none() => {
                if self.urls.add_list(kind, &page.url).is_some() {
                    self.status.lists_found += 1;
                }
                if let Some(fetched) = self.reader().read(page) {
                    let follow_ups = self.scheduler.observe(&fetched)?;
                    for follow_up in follow_ups.into_iter().rev() {
                        self.queue.push_front(follow_up);
                    }
                }
            }
            _ => self.note_discoveries(&outcome),
        }
        self.store_page(&outcome, hooks)?;
        Ok(true)
    }
}
