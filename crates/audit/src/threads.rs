//! What the crawl holds of each thread: its lists put together from page-flipping links, its
//! distinct posts and pages, and what the forum's counts say of them (posts per page, whether
//! boards count replies or posts).

use foldhash::{HashMap, HashMapExt, HashSet, HashSetExt};

use trawl_crawl::lists::{ListPage, assemble_lists};
use trawl_learn::sitemap::Role;

use crate::CrawlRecord;
use crate::states::answered;

/// What the entries of a fetched thread count.
#[derive(Debug, Default)]
pub(crate) struct Counted<'a> {
    pub(crate) replies: Option<u64>,
    pub(crate) last_reply: Option<&'a str>,
}

/// The forum's posts per page: the most common number of posts on thread pages followed by
/// another page of their thread (pages the forum filled), the larger on a tie; with no thread
/// of two pages, the most posts on one page (every thread then fits on one). The largest
/// number on any page would do if page analysis never read one post too many (a quoted box
/// read as a post); a full page's number is what the forum pages by.
pub(crate) fn posts_per_page(threads: &[ThreadPosts<'_>]) -> Option<usize> {
    let mut counts: HashMap<usize, usize> = HashMap::new();
    for count in threads.iter().flat_map(|thread| &thread.full_pages) {
        *counts.entry(*count).or_default() += 1;
    }
    counts
        .into_iter()
        .filter(|(posts, _)| *posts > 0)
        .max_by_key(|(posts, times)| (*times, *posts))
        .map(|(posts, _)| posts)
        .or_else(|| threads.iter().map(|thread| thread.most_on_a_page).max())
}

/// Whether the boards' counts leave the first post out. Threads the crawl holds whole agree on
/// one convention; those it holds in part or over-read agree with neither, so the vote is
/// between the threads holding exactly the count and those holding one more. With no thread to
/// tell, counts are taken as replies, which is what the column is called on most boards.
pub(crate) fn counts_are_replies(
    threads: &[ThreadPosts<'_>],
    counted: &HashMap<usize, Counted<'_>>,
) -> bool {
    let (mut as_replies, mut as_posts) = (0usize, 0usize);
    for (list, count) in counted {
        let Some(replies) = count.replies else {
            continue;
        };
        let posts = threads[*list].posts;
        as_replies += usize::from(posts == replies + 1);
        as_posts += usize::from(posts == replies);
    }
    as_replies >= as_posts
}

/// Whether the boards' counts say how many posts threads hold at all. A thread of one page,
/// not full, holds every post it has on the page the crawl read, so a count smaller than the
/// posts read there (even read as replies) cannot be its count of posts; when at least a fifth
/// of [`FEWEST_WHOLE_THREADS`] or more such threads show more posts than their count, the
/// number read as a count is something else. On the simulator's qa family the votes printed
/// before each question's answers were read as its replies, and the audit named threads whole
/// on one page as threads missing pages. (A count larger than the posts read says only that
/// some were not read, which the audit reports as unread posts.)
pub(crate) fn counts_say_posts(
    threads: &[ThreadPosts<'_>],
    counted: &HashMap<usize, Counted<'_>>,
    posts_per_page: usize,
) -> bool {
    let (mut whole, mut exceeding) = (0usize, 0usize);
    for (list, count) in counted {
        let (Some(replies), thread) = (count.replies, &threads[*list]) else {
            continue;
        };
        if thread.pages_with_posts != 1 || thread.last_page_posts >= posts_per_page {
            continue;
        }
        whole += 1;
        exceeding += usize::from(thread.posts > replies + 1);
    }
    whole < FEWEST_WHOLE_THREADS || 5 * exceeding < whole
}

/// Threads whole on one page needed before their counts can be found to say something else.
const FEWEST_WHOLE_THREADS: usize = 10;

/// Whether ISO 8601 time `later` names a later minute than `earlier`. Both come from one
/// forum's pages, read with the same zone, so their local dates and times compare as written;
/// times of a day's precision, or shorter, say nothing.
pub(crate) fn later_minute(later: &str, earlier: &str) -> bool {
    const MINUTE: usize = "2026-01-02T03:04".len();
    match (later.get(..MINUTE), earlier.get(..MINUTE)) {
        (Some(later), Some(earlier)) => later > earlier,
        _ => false,
    }
}

/// The smaller of two values where both are known, else the one known.
pub(crate) fn smaller_known<T: Ord>(first: Option<T>, second: Option<T>) -> Option<T> {
    match (first, second) {
        (Some(first), Some(second)) => Some(first.min(second)),
        (first, second) => first.or(second),
    }
}

/// The crawl's lists (boards and threads) put together from page-flipping links, and which
/// thread each page belongs to.
pub(crate) struct Lists {
    /// Page indices of each list, in page order. Pages with posts that the plan placed in no
    /// vertex are threads of one page each.
    pub(crate) lists: Vec<Vec<usize>>,
    /// The list of each page of a thread, by page index (`None` for other pages).
    pub(crate) thread_of_page: Vec<Option<usize>>,
    /// Whether each list is a thread.
    pub(crate) is_thread: Vec<bool>,
}

/// What the crawl holds of one thread.
#[derive(Debug, Default)]
pub(crate) struct ThreadPosts<'a> {
    /// Distinct posts.
    pub(crate) posts: u64,
    /// Pages that brought posts no earlier page of the thread showed.
    pub(crate) pages_with_posts: usize,
    /// Most posts on one of its pages.
    pub(crate) most_on_a_page: usize,
    /// Posts on each of its pages with posts but the last: pages the forum filled.
    pub(crate) full_pages: Vec<usize>,
    /// Posts on its last page holding any.
    pub(crate) last_page_posts: usize,
    /// The latest post time.
    pub(crate) newest_post: Option<&'a str>,
}

impl Lists {
    pub(crate) fn of(record: &CrawlRecord) -> Lists {
        let input: Vec<ListPage<'_>> = record
            .pages
            .iter()
            .map(|page| ListPage {
                url: &page.url,
                role: page.role.filter(|_| answered(page)),
                list_links: &page.list_links,
                title: page.title.as_deref(),
            })
            .collect();
        let mut lists: Vec<Vec<usize>> = assemble_lists(&input)
            .into_iter()
            .map(|list| list.pages)
            .collect();
        let mut is_thread: Vec<bool> = lists
            .iter()
            .map(|list| record.pages[list[0]].role == Some(Role::Thread))
            .collect();
        let mut first_fetch: HashSet<&str> = HashSet::new();
        for (index, page) in record.pages.iter().enumerate() {
            if page.role.is_none()
                && answered(page)
                && !page.posts.is_empty()
                && first_fetch.insert(page.url.as_str())
            {
                lists.push(vec![index]);
                is_thread.push(true);
            }
        }
        let mut thread_of_page = vec![None; record.pages.len()];
        for (list_index, list) in lists.iter().enumerate() {
            if is_thread[list_index] {
                for &page in list {
                    thread_of_page[page] = Some(list_index);
                }
            }
        }
        Lists {
            lists,
            thread_of_page,
            is_thread,
        }
    }

    /// Per list, what it holds of posts (empty for boards).
    pub(crate) fn thread_posts<'a>(&self, record: &'a CrawlRecord) -> Vec<ThreadPosts<'a>> {
        // One set for every thread, emptied between them: a crawl of 100,000 pages holds tens
        // of thousands of threads, and a set made for each costs more than its lookups.
        let mut seen: std::collections::HashSet<u64, BuildIdentityHasher> = Default::default();
        self.lists
            .iter()
            .zip(&self.is_thread)
            .map(|(list, is_thread)| {
                let mut thread = ThreadPosts::default();
                if !is_thread {
                    return thread;
                }
                seen.clear();
                for &page in list {
                    let posts = &record.pages[page].posts;
                    let mut new_posts = 0;
                    for identity in &posts.identities {
                        if seen.insert(*identity) {
                            new_posts += 1;
                        }
                    }
                    if let Some(time) = posts.newest.as_deref()
                        && thread.newest_post.is_none_or(|newest| time > newest)
                    {
                        thread.newest_post = Some(time);
                    }
                    if new_posts > 0 {
                        if thread.pages_with_posts > 0 {
                            thread.full_pages.push(thread.last_page_posts);
                        }
                        thread.pages_with_posts += 1;
                        thread.last_page_posts = posts.len();
                    }
                    thread.most_on_a_page = thread.most_on_a_page.max(posts.len());
                    thread.posts += new_posts;
                }
                thread
            })
            .collect()
    }
}

/// Post identities are already 64-bit hashes of what tells posts apart
/// ([`crate::post_identity`]), so a set of them needs no hashing again: the identity is its own
/// hash.
#[derive(Default)]
pub(crate) struct IdentityHasher(u64);

impl std::hash::Hasher for IdentityHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        // Only `u64`s are hashed with it; other values still hash, byte by byte.
        for byte in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(*byte);
        }
    }

    fn write_u64(&mut self, value: u64) {
        self.0 = value;
    }
}

/// Makes [`IdentityHasher`]s.
pub(crate) type BuildIdentityHasher = std::hash::BuildHasherDefault<IdentityHasher>;
