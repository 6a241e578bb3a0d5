//! Where the replay's pages come from: the fast path, which hands the scheduler the records a
//! page would show straight from the simulator's history, and the page path, which fetches the
//! page through the [`Fetcher`] seam as HTML and reads it with page analysis, as a live crawl
//! does. Both answer with the [`FetchedPage`] the scheduler learns from; what the page really
//! showed (which posts it stores, which threads it lists) is judged from the truth by the
//! replay, the same way for both.
//!
//! The two paths hand the scheduler the same thing when page analysis reads a page right:
//! post times to the minute (forums print minutes), thread entries with their last-post time
//! and reply count and nothing else (no pin flag or page count, which list pages show in too
//! many ways to read reliably), pins inferred from order ([`trawl_schedule::infer_pins`]), and the page count a
//! pager shows.

use std::collections::HashMap;
use std::sync::Mutex;

use jiff::Timestamp;
use jiff::tz::{Offset, TimeZone};
use trawl_model::{FetchRequest, Fetcher};
use trawl_page::analysis::{RecordsWanted, analyse_structure};
use trawl_page::lean::ListReading;
use trawl_page::time::DateContext;
use trawl_schedule::{FetchedPage, ListId, PageContent, ThreadEntry, infer_pins};
use trawl_sim::{Route, SimFetcher, Site, SortOrder};
use url::Url;

use super::forum::{ListName, Listings, board_list, list_name, thread_list, timestamp};

/// Which path the replay takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PagePath {
    /// Records straight from the history, no rendering or parsing.
    Fast,
    /// Pages rendered, fetched through the in-process fetcher and analysed.
    Full,
}

impl PagePath {
    pub fn name(self) -> &'static str {
        match self {
            PagePath::Fast => "fast",
            PagePath::Full => "page",
        }
    }
}

/// Instants as forums print them: to the minute.
fn to_minute(second: i64) -> Timestamp {
    timestamp(second - second.rem_euclid(60))
}

fn entry(thread: ListId, last_post_at: Option<Timestamp>, replies: Option<u32>) -> ThreadEntry {
    ThreadEntry {
        thread,
        started_at: None,
        last_post_at,
        replies,
        pages: None,
        pinned: false,
    }
}

/// The fast path's answer for page `page` of `list` at `at`.
pub(crate) fn fast_page(
    site: &Site,
    listings: &Listings,
    stickies: &[Vec<u32>],
    list: ListId,
    page: u32,
    at: i64,
) -> FetchedPage {
    let history = site.history();
    let profile = site.family().profile();
    let content_and_count = match list_name(list) {
        ListName::Thread(thread) => {
            let posts = listings.posts(site, thread);
            let per_page = profile.posts_per_page.max(1) as usize;
            let pages = posts.len().div_ceil(per_page) as u32;
            if page > pages {
                (PageContent::Failed, None)
            } else {
                let start = (page as usize - 1) * per_page;
                let times = posts
                    .iter()
                    .skip(start)
                    .take(per_page)
                    .filter_map(|&post| history.post(post).map(|post| to_minute(post.created)))
                    .collect();
                (PageContent::Posts(times), Some(pages))
            }
        }
        ListName::Board(board) => {
            let per_page = profile.threads_per_page.max(1) as usize;
            let pages = (listings.count(board).div_ceil(per_page) as u32).max(1);
            if page > pages {
                // Engines answer a board page past the end with an empty list.
                (PageContent::Entries(Vec::new()), Some(pages))
            } else {
                let mut shown: Vec<u32> = Vec::new();
                if page == 1 {
                    let mut pinned: Vec<(i64, u32)> = stickies
                        .get(board as usize - 1)
                        .into_iter()
                        .flatten()
                        .filter_map(|&thread| Some((listings.last_post(thread)?, thread)))
                        .collect();
                    pinned.sort_by(|a, b| b.cmp(a));
                    shown.extend(pinned.into_iter().map(|(_, thread)| thread));
                }
                shown.extend(listings.page(board, page, per_page));
                let mut entries: Vec<ThreadEntry> = shown
                    .into_iter()
                    .map(|thread| {
                        let posts = listings.posts(site, thread);
                        let last = posts
                            .last()
                            .and_then(|&post| history.post(post))
                            .map(|post| to_minute(post.created));
                        entry(
                            thread_list(thread),
                            last,
                            Some(posts.len().saturating_sub(1) as u32),
                        )
                    })
                    .collect();
                infer_pins(&mut entries);
                (PageContent::Entries(entries), Some(pages))
            }
        }
    };
    let (content, page_count) = content_and_count;
    FetchedPage {
        list,
        page,
        fetched_at: timestamp(at),
        page_count,
        content,
    }
}

/// The boards a portal shows, from the history (the fast path).
pub(crate) fn fast_portal(site: &Site) -> Vec<u32> {
    (1..=site.history().board_count()).collect()
}

/// The most forum addresses [`PageReader`] keeps the routes of; past it the table starts over.
const REMEMBERED_ROUTES: usize = 1 << 18;

/// How the page path reads a page's records.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Reading {
    /// Only what the scheduler learns from ([`PageStructure::read_list`]): the replay's way.
    ///
    /// [`PageStructure::read_list`]: trawl_page::analysis::PageStructure::read_list
    Lean,
    /// Every field, as a crawl that archives the page reads it: what the lean reading must
    /// hand the scheduler the same as.
    #[cfg_attr(not(test), allow(dead_code))]
    Whole,
}

/// The page path: the simulator's pages through the in-process fetcher, read by page analysis.
#[derive(Debug)]
pub(crate) struct PageReader {
    fetcher: SimFetcher,
    offset: i32,
    reading: Reading,
    /// The route of every forum address looked up so far. Every link of every page is looked
    /// up to find the pager, and reading an address into a route (splitting its query,
    /// decoding the family's URL scheme) cost about a tenth of the page path; the same
    /// navigation, profile and thread links come back on page after page, and a route depends
    /// on the address alone. Shared by the threads that read pages ahead.
    routes: Mutex<HashMap<String, Option<Route>>>,
}

impl PageReader {
    pub(crate) fn new(site: std::sync::Arc<Site>) -> Self {
        Self::reading(site, Reading::Lean)
    }

    /// A reader that reads pages the way `reading` says.
    pub(crate) fn reading(site: std::sync::Arc<Site>, reading: Reading) -> Self {
        let offset = site.history().utc_offset_seconds;
        PageReader {
            fetcher: SimFetcher::new(site, "http://forum.sim.test"),
            offset,
            reading,
            routes: Mutex::new(HashMap::new()),
        }
    }

    fn site(&self) -> &Site {
        self.fetcher.site()
    }

    fn url_of(&self, route: Route) -> String {
        let address = trawl_sim::Address::canonical(route);
        format!("{}{}", self.fetcher.origin(), self.site().url_of(&address))
    }

    /// The routes the addresses `urls` of a page name, each `None` when it is not on the
    /// forum. The table is locked twice a page, not once a link: the threads that read pages
    /// ahead share it, and a page has a hundred links and more. Addresses not seen before are
    /// read into routes between the two, with the table free for the other threads.
    fn routes_of<'u>(&self, urls: impl Iterator<Item = &'u str>) -> Vec<Option<Route>> {
        let urls: Vec<&str> = urls.collect();
        let known: Vec<Option<Option<Route>>> = {
            let routes = self.routes_table();
            urls.iter().map(|url| routes.get(*url).cloned()).collect()
        };
        let mut learned: Vec<(usize, Option<Route>)> = Vec::new();
        for (index, route) in known.iter().enumerate() {
            if route.is_none() {
                let route = urls[index]
                    .strip_prefix(self.fetcher.origin())
                    .and_then(|rest| self.site().address_of(rest))
                    .map(|address| address.route);
                learned.push((index, route));
            }
        }
        if !learned.is_empty() {
            let mut routes = self.routes_table();
            if routes.len() + learned.len() > REMEMBERED_ROUTES {
                routes.clear();
            }
            for (index, route) in &learned {
                routes.insert(urls[*index].to_string(), route.clone());
            }
        }
        let mut learned = learned.into_iter().peekable();
        known
            .into_iter()
            .enumerate()
            .map(|(index, route)| match route {
                Some(route) => route,
                None => learned
                    .next_if(|(at, _)| *at == index)
                    .and_then(|(_, route)| route),
            })
            .collect()
    }

    fn routes_table(&self) -> std::sync::MutexGuard<'_, HashMap<String, Option<Route>>> {
        self.routes
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Fetches `url` at `at` and analyses it for the records `wanted`: the replay knows which
    /// kind of list it asked for, and reading the other kind of record too (thread entries of a
    /// thread page, posts of a board page) cost page analysis time for records no caller
    /// looked at. The lean reading leaves out the fields of a record no caller looks at either.
    fn get(&self, url: &str, at: i64, wanted: RecordsWanted) -> Option<ListReading> {
        let response = self
            .fetcher
            .fetch(&FetchRequest::new(url, timestamp(at)))
            .ok()?;
        if response.status != 200 {
            return None;
        }
        let content_type = response
            .headers
            .iter()
            .find(|(name, _)| name.eq_ignore_ascii_case("content-type"))
            .map(|(_, value)| value.as_str());
        let parsed = Url::parse(url).ok()?;
        let context = DateContext::new(timestamp(at), Some(self.offset));
        let structure = analyse_structure(&response.body, content_type, &parsed, &context);
        Some(match self.reading {
            Reading::Lean => structure.read_list(wanted),
            Reading::Whole => ListReading::of(structure.read_records(wanted)),
        })
    }

    /// The instant a page's time stands for, on the forum's clock unless it names its own.
    fn instant(&self, time: &trawl_page::time::ParsedTime) -> Option<Timestamp> {
        let offset = time.explicit_offset_seconds.unwrap_or(self.offset);
        let zone = TimeZone::fixed(Offset::from_seconds(offset).ok()?);
        time.local
            .to_zoned(zone)
            .ok()
            .map(|zoned| zoned.timestamp())
    }

    /// The boards the portal links.
    pub(crate) fn portal(&self, at: i64) -> Vec<u32> {
        let Some(page) = self.get(&self.url_of(Route::Portal), at, RecordsWanted::Both) else {
            return Vec::new();
        };
        let mut boards: Vec<u32> = self
            .routes_of(page.links.iter().map(|link| link.url.as_str()))
            .into_iter()
            .filter_map(|route| match route {
                Some(Route::Board { board, page: 1 }) => Some(board),
                _ => None,
            })
            .collect();
        boards.sort_unstable();
        boards.dedup();
        boards
    }

    /// Fetches page `page` of `list` at `at` and reads it.
    pub(crate) fn page(&self, list: ListId, page: u32, at: i64) -> FetchedPage {
        let route = match list_name(list) {
            ListName::Board(board) => {
                self.site()
                    .board_page_route(board, page, SortOrder::LastPost, at)
            }
            ListName::Thread(thread) => Route::Thread { thread, page },
        };
        let failed = FetchedPage {
            list,
            page,
            fetched_at: timestamp(at),
            page_count: None,
            content: PageContent::Failed,
        };
        let wanted = match list_name(list) {
            ListName::Board(_) => RecordsWanted::ThreadEntriesFirst,
            ListName::Thread(_) => RecordsWanted::PostsFirst,
        };
        let Some(analysis) = self.get(&self.url_of(route), at, wanted) else {
            return failed;
        };
        // The pager: the highest page of this list the page links to, or the next page when the
        // list pages by cursor; the page itself when it shows records.
        let shows_records = match list_name(list) {
            ListName::Thread(_) => !analysis.post_times.is_empty(),
            ListName::Board(_) => !analysis.thread_entries.is_empty(),
        };
        let mut page_count = if shows_records { page } else { 1 };
        for route in self.routes_of(analysis.links.iter().map(|link| link.url.as_str())) {
            match (list_name(list), route) {
                (
                    ListName::Board(board),
                    Some(Route::Board {
                        board: other,
                        page: linked,
                    }),
                )
                | (
                    ListName::Thread(board),
                    Some(Route::Thread {
                        thread: other,
                        page: linked,
                    }),
                ) if other == board => {
                    page_count = page_count.max(linked);
                }
                (ListName::Board(board), Some(Route::BoardAfter { board: other, .. }))
                    if other == board =>
                {
                    page_count = page_count.max(page + 1);
                }
                _ => {}
            }
        }
        let content = match list_name(list) {
            ListName::Thread(_) => PageContent::Posts(
                analysis
                    .post_times
                    .iter()
                    .flatten()
                    .filter_map(|time| self.instant(time))
                    .collect(),
            ),
            ListName::Board(_) => {
                let routes = self.routes_of(
                    analysis
                        .thread_entries
                        .iter()
                        .map(|found| found.url.as_str()),
                );
                let mut entries: Vec<ThreadEntry> = analysis
                    .thread_entries
                    .iter()
                    .zip(routes)
                    .filter_map(|(found, route)| {
                        let thread = match route? {
                            Route::Thread { thread, .. } => thread,
                            _ => return None,
                        };
                        let last = found
                            .last_reply
                            .as_ref()
                            .and_then(|time| self.instant(time));
                        let replies = found
                            .replies
                            .map(|count| count.min(u64::from(u32::MAX)) as u32);
                        Some(entry(thread_list(thread), last, replies))
                    })
                    .collect();
                infer_pins(&mut entries);
                PageContent::Entries(entries)
            }
        };
        FetchedPage {
            list,
            page,
            fetched_at: timestamp(at),
            page_count: Some(page_count),
            content,
        }
    }
}

/// The board the scheduler's id names, for registering boards found on the portal.
pub(crate) fn board_ids(boards: &[u32]) -> Vec<ListId> {
    boards.iter().map(|&board| board_list(board)).collect()
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use trawl_sim::{FamilyName, Scale, SiteConfig};

    use super::*;

    /// The lists of `site` a replay fetches, each with the pages to read: the first boards'
    /// first two pages, and the first threads of the first board, the first page and the
    /// second (past the end for most, which must fail alike).
    fn lists_of(site: &Site) -> Vec<(ListId, u32)> {
        let history = site.history();
        let mut lists = Vec::new();
        for board in 1..=history.board_count().min(3) {
            lists.extend([(board_list(board), 1), (board_list(board), 2)]);
        }
        let threads = history
            .board(1)
            .map(|board| board.threads.clone())
            .unwrap_or_default();
        for thread in threads.into_iter().take(4) {
            lists.extend([(thread_list(thread), 1), (thread_list(thread), 2)]);
        }
        lists
    }

    #[test]
    fn the_lean_reading_hands_the_scheduler_what_the_whole_reading_does_on_every_family() {
        let mut read = 0;
        let mut wrong = Vec::new();
        for family in FamilyName::ALL {
            let site = Arc::new(Site::build(SiteConfig::new(family, 5, Scale::Small)));
            let lean = PageReader::reading(Arc::clone(&site), Reading::Lean);
            let whole = PageReader::reading(Arc::clone(&site), Reading::Whole);
            let history = site.history();
            let instants = [
                history.start + (history.end - history.start) / 2,
                history.end,
            ];
            for at in instants {
                if lean.portal(at) != whole.portal(at) {
                    wrong.push(format!("{}: the portal at {at}", family.name()));
                }
                for (list, page) in lists_of(&site) {
                    let (by_lean, by_whole) =
                        (lean.page(list, page, at), whole.page(list, page, at));
                    let shows_records = match &by_whole.content {
                        PageContent::Posts(times) => !times.is_empty(),
                        PageContent::Entries(entries) => !entries.is_empty(),
                        PageContent::Failed => false,
                    };
                    read += usize::from(shows_records);
                    if by_lean != by_whole {
                        wrong.push(format!(
                            "{}: {list:?} page {page} at {at}: lean {by_lean:?}, whole {by_whole:?}",
                            family.name()
                        ));
                    }
                }
            }
        }
        assert!(wrong.is_empty(), "{}", wrong.join("\n"));
        // Most pages show records, so the comparison is of records and not of empty pages.
        assert!(
            read > FamilyName::ALL.len() * 2 * 6,
            "{read} pages with records"
        );
    }
}
