//! `trawl export`: a crawl database as JSON lines (threads or pages) or as a WARC file.
//!
//! Threads are put back together here rather than during the crawl: a thread's pages can arrive
//! in any order and from several places, and only the finished (or stopped) crawl knows all of
//! them. [`trawl_crawl::lists::assemble_lists`] groups pages joined by page-flipping links and
//! orders them; this module names each thread by the board entry that linked to it.

use std::collections::{HashMap, HashSet};
use std::io::Write;
use std::path::PathBuf;

use anyhow::{Context, Result, bail};
use clap::{Args, ValueEnum};
use serde_json::json;
use trawl_learn::sitemap::Role;
use trawl_store::{Store, StoreLocation, StoredPage};

use crate::audit::open_crawl_to_read;

#[derive(Debug, Args)]
pub struct ExportArgs {
    /// The crawl database: a file, or a `postgres://` URL.
    #[arg(long)]
    pub db: StoreLocation,
    /// The site to export, by the URL its crawl was started with, in a PostgreSQL database
    /// holding several (a file holds one crawl).
    #[arg(long)]
    pub site: Option<String>,
    /// What to print as JSON lines: one object per thread, or one per fetched page.
    #[arg(value_enum)]
    pub what: Option<ExportKind>,
    /// Write every fetched response as WARC 1.1 records to this file (gzip per record).
    #[arg(long)]
    pub warc: Option<PathBuf>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ExportKind {
    /// `{"url", "board", "title", "pages", "posts"}` per thread.
    Threads,
    /// `{"url", "status", "fetched_at", "vertex", "role", "list", "position"}` per fetch (a page
    /// fetched again has the list and position of its first fetch).
    Pages,
}

pub fn run(args: ExportArgs) -> Result<()> {
    let store = open_crawl_to_read(&args.db, args.site.as_deref(), false)
        .with_context(|| format!("cannot open the crawl database {}", args.db))?;
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let lines = match (args.what, &args.warc) {
        (Some(_), Some(_)) => {
            bail!("export either JSON lines (threads, pages) or --warc FILE, one at a time")
        }
        (None, None) => bail!("say what to export: `threads`, `pages`, or `--warc FILE`"),
        (Some(ExportKind::Threads), None) => threads(&load_pages(&store)?),
        (Some(ExportKind::Pages), None) => pages(&load_pages(&store)?),
        (None, Some(path)) => {
            let count = crate::warc_export::write_warc(&store, path)?;
            eprintln!("wrote {count} responses to {}", path.display());
            return Ok(());
        }
    };
    let written = lines
        .iter()
        .try_for_each(|line| writeln!(out, "{line}"))
        .and_then(|()| out.flush());
    match written {
        // A reader that stops early (`| head`) is not an error of the export.
        Err(error) if error.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        other => other.context("cannot write to standard output"),
    }
}

fn load_pages(store: &Store) -> Result<Vec<StoredPage>> {
    let mut pages = Vec::new();
    store.for_each_page(false, |page| pages.push(page))?;
    Ok(pages)
}

/// The lists a crawl's pages make (indices into the pages, in page order, each page by its first
/// fetch), and for each fetch of a page in a list, its list and its position there.
pub struct Lists {
    pub lists: Vec<Vec<usize>>,
    pub list_of_page: HashMap<usize, (usize, usize)>,
    /// For a list page fetched more than once (`trawl watch` revisits the newest pages), the
    /// later fetches, in fetch order, by the index of the first.
    pub later_fetches: HashMap<usize, Vec<usize>>,
}

impl Lists {
    /// Every fetch of the list page whose first fetch is `page`, in fetch order.
    pub fn fetches_of(&self, page: usize) -> impl Iterator<Item = usize> + '_ {
        std::iter::once(page).chain(self.later_fetches.get(&page).into_iter().flatten().copied())
    }
}

/// Boards and threads put back together from stored pages, as every export shows them.
pub fn lists(pages: &[StoredPage]) -> Lists {
    let (roles, lists) = trawl_run::assemble_stored_lists(pages);
    let lists: Vec<Vec<usize>> = lists.into_iter().map(|list| list.pages).collect();
    let mut list_of_page = HashMap::new();
    for (list_index, list) in lists.iter().enumerate() {
        for (position, &page) in list.iter().enumerate() {
            list_of_page.insert(page, (list_index, position));
        }
    }
    // A later fetch of a list page with the page's role is the same page, as it was later.
    let mut later_fetches: HashMap<usize, Vec<usize>> = HashMap::new();
    let mut first_fetch_of_url: HashMap<&str, usize> = HashMap::new();
    for (index, page) in pages.iter().enumerate() {
        let first = *first_fetch_of_url
            .entry(page.record.url.as_str())
            .or_insert(index);
        if first != index
            && roles[first] == roles[index]
            && let Some(&place) = list_of_page.get(&first)
        {
            later_fetches.entry(first).or_default().push(index);
            list_of_page.insert(index, place);
        }
    }
    Lists {
        lists,
        list_of_page,
        later_fetches,
    }
}

/// One JSON object per fetch, in fetch order.
pub fn pages(pages: &[StoredPage]) -> Vec<serde_json::Value> {
    let lists = lists(pages);
    pages
        .iter()
        .enumerate()
        .map(|(index, page)| {
            let record = &page.record;
            let (list, position) = match lists.list_of_page.get(&index) {
                Some(&(list, position)) => (
                    Some(pages[lists.lists[list][0]].record.url.clone()),
                    Some(position),
                ),
                None => (None, None),
            };
            let mut object = json!({
                "url": record.url,
                "status": record.status,
                "fetched_at": record.fetched_at.to_string(),
                "vertex": record.vertex,
                "role": record.role,
                "list": list,
                "position": position,
            });
            if let Some(error) = &record.error {
                object["error"] = json!(error);
            }
            object
        })
        .collect()
}

/// What tells two posts apart: the permalink, or else author, time and text.
type PostIdentity<'a> = (Option<&'a str>, Option<&'a str>, Option<&'a str>, &'a str);

/// What names a post in its permalink: the fragment when there is one (`#p1004`), since a post
/// repeated at the top of the next page (the last post of page 1 shown again on page 2) has a
/// permalink spelled with each page's own URL (`?id=5#p1004`, `?id=5&page=2#p1004`); else the
/// whole URL (`/post/1004`). Posts are compared within one thread, where anchors are unique.
fn post_anchor(permalink: &str) -> &str {
    match permalink.split_once('#') {
        Some((_, fragment)) if !fragment.is_empty() => fragment,
        _ => permalink,
    }
}

/// One JSON object per thread: its pages in order and their posts.
pub fn threads(pages: &[StoredPage]) -> Vec<serde_json::Value> {
    let lists = lists(pages);
    // Board entries name threads: the entry's URL (fragment dropped) gives the thread's title
    // and the board list it was listed on.
    let mut entry_of_url: HashMap<&str, (&str, usize)> = HashMap::new();
    for (list_index, list) in lists.lists.iter().enumerate() {
        for page in list.iter().flat_map(|&page| lists.fetches_of(page)) {
            if pages[page].record.role.as_deref() != Some(Role::ThreadList.name()) {
                continue;
            }
            for entry in &pages[page].record.thread_entries {
                let url = entry.url.split('#').next().unwrap_or(&entry.url);
                entry_of_url
                    .entry(url)
                    .or_insert((entry.title.as_str(), list_index));
            }
        }
    }
    // A crawl without a plan (`--strategy bfs`) gives its pages no role and keeps no list
    // relationships: each page that shows posts is then a thread of its own, the most such a
    // crawl knows, rather than no thread at all.
    let unplaced_pages_with_posts: Vec<Vec<usize>> = pages
        .iter()
        .enumerate()
        .filter(|(_, page)| page.record.role.is_none() && !page.record.posts.is_empty())
        .map(|(index, _)| vec![index])
        .collect();
    let exported: Vec<(serde_json::Value, Vec<ContentIdentity<'_>>)> = lists
        .lists
        .iter()
        .filter(|list| pages[list[0]].record.role.as_deref() == Some(Role::Thread.name()))
        .chain(&unplaced_pages_with_posts)
        .map(|list| {
            let entry = list
                .iter()
                .find_map(|&page| entry_of_url.get(pages[page].record.url.as_str()));
            let title = entry
                .map(|(title, _)| title.to_string())
                .or_else(|| pages[list[0]].record.title.clone());
            let board =
                entry.map(|(_, board_list)| pages[lists.lists[*board_list][0]].record.url.clone());
            // A page whose posts were all shown by earlier pages of the thread is the same page
            // under another spelling (`&start=0`): it is left out, and a post shown twice (by
            // permalink, or by author, time and text when it has none) is kept once.
            let mut posts_seen: HashSet<PostIdentity<'_>> = HashSet::new();
            let mut kept_pages: Vec<usize> = Vec::new();
            let mut posts: Vec<serde_json::Value> = Vec::new();
            let mut contents: Vec<ContentIdentity<'_>> = Vec::new();
            for &page in list {
                // Every fetch of the page, so the posts a revisit found are exported too.
                let page_posts: Vec<&trawl_store::PostRecord> = lists
                    .fetches_of(page)
                    .flat_map(|fetch| &pages[fetch].record.posts)
                    .collect();
                let mut new_posts = 0;
                for post in page_posts.iter().copied() {
                    let identity = match post.permalink.as_deref().map(post_anchor) {
                        Some(anchor) => (Some(anchor), None, None, ""),
                        None => (
                            None,
                            post.author.as_deref(),
                            post.time.as_deref(),
                            post.text.as_str(),
                        ),
                    };
                    if !posts_seen.insert(identity) {
                        continue;
                    }
                    new_posts += 1;
                    contents.push((post.author.as_deref(), post.time.as_deref(), &post.text));
                    posts.push(json!({
                        "author": post.author,
                        "time": post.time,
                        "text": post.text,
                        "permalink": post.permalink,
                    }));
                }
                if new_posts > 0 || page_posts.is_empty() {
                    kept_pages.push(page);
                }
            }
            let list = kept_pages;
            let thread = json!({
                "url": pages[list[0]].record.url,
                "board": board,
                "title": title,
                "pages": list.iter().map(|&page| &pages[page].record.url).collect::<Vec<_>>(),
                "posts": posts,
            });
            (thread, contents)
        })
        .collect();
    let contents: Vec<&[ContentIdentity<'_>]> = exported
        .iter()
        .map(|(_, contents)| contents.as_slice())
        .collect();
    let shown_elsewhere = threads_shown_elsewhere(&contents);
    exported
        .into_iter()
        .enumerate()
        .filter(|(index, _)| !shown_elsewhere.contains(index))
        .map(|(_, (thread, _))| thread)
        .collect()
}

/// What a post says, whatever page shows it: author, time and text. Permalinks are spelled
/// differently by the different kinds of page showing one post, and their anchors are unique
/// only within a thread.
type ContentIdentity<'a> = (Option<&'a str>, Option<&'a str>, &'a str);

/// The threads (by index) every post of which another thread exports: a post's own page
/// (`showpost.php?p=N`, a single-post view a crawl fetched beside the thread page holding the
/// post) is no thread of its own, and exporting it as one stored each such post twice. Threads
/// are judged fullest first, the earlier of two equal ones kept, so that of two spellings of
/// one thread one stays; a thread some of whose posts are nowhere else is always kept.
fn threads_shown_elsewhere(contents: &[&[ContentIdentity<'_>]]) -> HashSet<usize> {
    let mut order: Vec<usize> = (0..contents.len()).collect();
    order.sort_by_key(|index| std::cmp::Reverse(contents[*index].len()));
    let mut exported: HashSet<ContentIdentity<'_>> = HashSet::new();
    let mut shown_elsewhere = HashSet::new();
    for index in order {
        let posts = contents[index];
        if !posts.is_empty() && posts.iter().all(|post| exported.contains(post)) {
            shown_elsewhere.insert(index);
        } else {
            exported.extend(posts.iter().copied());
        }
    }
    shown_elsewhere
}

#[cfg(test)]
mod tests {
    use super::*;
    use trawl_store::{PageRecord, PostRecord};

    /// A post given as (author, time, text, permalink).
    type Post<'a> = (&'a str, &'a str, &'a str, Option<&'a str>);

    fn thread_page(url: &str, next: Option<&str>, posts: &[Post<'_>]) -> StoredPage {
        StoredPage {
            id: 0,
            plan_generation: 0,
            record: PageRecord {
                url: url.to_string(),
                role: Some(Role::Thread.name().to_string()),
                list_links: next.into_iter().map(str::to_string).collect(),
                posts: posts
                    .iter()
                    .map(|(author, time, text, permalink)| PostRecord {
                        author: Some(author.to_string()),
                        time: Some(time.to_string()),
                        text: text.to_string(),
                        permalink: permalink.map(str::to_string),
                    })
                    .collect(),
                ..PageRecord::default()
            },
        }
    }

    /// Exports the pages as threads and checks the texts of the one thread's posts.
    fn check(pages: &[StoredPage], expected: &[&str]) {
        let threads = threads(pages);
        assert_eq!(threads.len(), 1, "one thread");
        let texts: Vec<&str> = threads[0]["posts"]
            .as_array()
            .unwrap()
            .iter()
            .map(|post| post["text"].as_str().unwrap())
            .collect();
        assert_eq!(texts, expected);
    }

    fn board_page(url: &str, entries: &[(&str, &str)]) -> StoredPage {
        StoredPage {
            id: 0,
            plan_generation: 0,
            record: PageRecord {
                url: url.to_string(),
                role: Some(Role::ThreadList.name().to_string()),
                thread_entries: entries
                    .iter()
                    .map(|(title, url)| trawl_store::ThreadEntryRecord {
                        title: title.to_string(),
                        url: url.to_string(),
                        ..trawl_store::ThreadEntryRecord::default()
                    })
                    .collect(),
                ..PageRecord::default()
            },
        }
    }

    /// Exports the pages as threads and checks each thread's title, board and post texts.
    fn check_threads(pages: &[StoredPage], expected: &[(&str, Option<&str>, &[&str])]) {
        let got: Vec<(String, Option<String>, Vec<String>)> = threads(pages)
            .iter()
            .map(|thread| {
                (
                    thread["title"].as_str().unwrap_or_default().to_string(),
                    thread["board"].as_str().map(str::to_string),
                    thread["posts"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|post| post["text"].as_str().unwrap().to_string())
                        .collect(),
                )
            })
            .collect();
        let expected: Vec<(String, Option<String>, Vec<String>)> = expected
            .iter()
            .map(|(title, board, posts)| {
                (
                    title.to_string(),
                    board.map(str::to_string),
                    posts.iter().map(|post| post.to_string()).collect(),
                )
            })
            .collect();
        assert_eq!(got, expected);
    }

    #[test]
    fn what_a_revisit_stored_is_exported() {
        let board = "http://f.test/forum.php?id=1";
        let first = "http://f.test/topic.php?id=5";
        let second = "http://f.test/topic.php?id=5&page=2";
        let new_thread = "http://f.test/topic.php?id=6";
        let links: Vec<String> = (1..=3).map(|id| format!("{first}#p{id}")).collect();
        let post = |text: &'static str, id: usize| -> Post<'_> {
            (
                "ann",
                "2024-03-01T10:00",
                text,
                Some(links[id - 1].as_str()),
            )
        };
        check_threads(
            &[
                // The crawl: a board listing one thread of one page.
                board_page(board, &[("Old", first)]),
                thread_page(first, None, &[post("one", 1)]),
                // The watch: the board again, now listing a new thread, the old thread's page
                // again with a reply and a pager, its new second page, and the new thread.
                board_page(board, &[("New", new_thread), ("Old", first)]),
                thread_page(first, Some(second), &[post("one", 1), post("two", 2)]),
                thread_page(second, Some(first), &[post("three", 3)]),
                thread_page(
                    new_thread,
                    None,
                    &[("bob", "2024-03-02T09:00", "hello", None)],
                ),
            ],
            &[
                ("Old", Some(board), &["one", "two", "three"]),
                ("New", Some(board), &["hello"]),
            ],
        );
        // Pages: a later fetch has its page's list and position.
        let pages = pages(&[
            thread_page(first, None, &[]),
            thread_page(first, Some(second), &[]),
            thread_page(second, Some(first), &[]),
        ]);
        let places: Vec<(serde_json::Value, serde_json::Value)> = pages
            .iter()
            .map(|page| (page["list"].clone(), page["position"].clone()))
            .collect();
        assert_eq!(
            places,
            vec![
                (json!(first), json!(0)),
                (json!(first), json!(0)),
                (json!(first), json!(1))
            ]
        );
    }

    #[test]
    fn a_post_repeated_at_the_top_of_the_next_page_is_kept_once() {
        let first = "http://f.test/topic.php?id=5";
        let second = "http://f.test/topic.php?id=5&page=2";
        // Permalinks spelled with each page's own URL.
        check(
            &[
                thread_page(
                    first,
                    Some(second),
                    &[
                        (
                            "ann",
                            "2024-03-01T10:00",
                            "one",
                            Some(&format!("{first}#p1")),
                        ),
                        (
                            "bob",
                            "2024-03-01T11:00",
                            "two",
                            Some(&format!("{first}#p2")),
                        ),
                    ],
                ),
                thread_page(
                    second,
                    None,
                    &[
                        (
                            "bob",
                            "2024-03-01T11:00",
                            "two",
                            Some(&format!("{second}#p2")),
                        ),
                        (
                            "cid",
                            "2024-03-01T12:00",
                            "three",
                            Some(&format!("{second}#p3")),
                        ),
                    ],
                ),
            ],
            &["one", "two", "three"],
        );
        // No permalinks: author, time and text.
        check(
            &[
                thread_page(
                    first,
                    Some(second),
                    &[
                        ("ann", "2024-03-01T10:00", "one", None),
                        ("bob", "2024-03-01T11:00", "two", None),
                    ],
                ),
                thread_page(
                    second,
                    None,
                    &[
                        ("bob", "2024-03-01T11:00", "two", None),
                        ("cid", "2024-03-01T12:00", "three", None),
                    ],
                ),
            ],
            &["one", "two", "three"],
        );
        // Permalinks of their own: two posts of one text stay two.
        check(
            &[
                thread_page(
                    first,
                    Some(second),
                    &[(
                        "ann",
                        "2024-03-01T10:00",
                        "+1",
                        Some("http://f.test/post/1"),
                    )],
                ),
                thread_page(
                    second,
                    None,
                    &[(
                        "ann",
                        "2024-03-01T10:00",
                        "+1",
                        Some("http://f.test/post/2"),
                    )],
                ),
            ],
            &["+1", "+1"],
        );
    }

    #[test]
    fn a_post_shown_alone_on_its_own_page_is_exported_once_with_its_thread() {
        let thread = "http://f.test/showthread.php?t=5";
        let single = |id: usize| format!("http://f.test/showpost.php?p={id}");
        let (first, second) = (single(41), single(42));
        let posts: [Post<'_>; 2] = [
            ("ann", "2024-03-01T10:00", "one", Some(first.as_str())),
            ("bob", "2024-03-01T11:00", "two", Some(second.as_str())),
        ];
        // The single-post pages, fetched before or after the thread, are kinds of page of
        // their own: each is a list of one page, whose post the thread page shows too.
        check_threads(
            &[
                thread_page(&second, None, &posts[1..]),
                thread_page(thread, None, &posts),
                thread_page(&first, None, &posts[..1]),
            ],
            &[("", None, &["one", "two"])],
        );
        // A post shown alone that no fetched thread page shows is kept: it is all the crawl
        // has of it.
        let third = single(43);
        check_threads(
            &[
                thread_page(thread, None, &posts),
                thread_page(
                    &third,
                    None,
                    &[("cid", "2024-03-01T12:00", "three", Some(third.as_str()))],
                ),
            ],
            &[("", None, &["one", "two"]), ("", None, &["three"])],
        );
    }
}
