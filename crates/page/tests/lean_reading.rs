//! The lean reading of a list page (`PageStructure::read_list`) gives a recrawl scheduler what
//! the whole reading gives: the same posts with the same times, the same thread entries (their
//! starters aside) and the same links, under every `RecordsWanted`, on the pages of every
//! simulated family and on the 53 development pages of WEB-FORUM-52.

mod common;

use jiff::Timestamp;
use trawl_page::analysis::{PageStructure, RecordsWanted, analyse_text_structure};
use trawl_page::records::ThreadEntry;
use trawl_page::time::DateContext;
use trawl_sim::{Address, FamilyName, Route, Scale, Site, SiteConfig};
use url::Url;

use common::structure_of_page;

/// The development pages of WEB-FORUM-52, in `shared/` beside the repository.
const DEVELOPMENT_PAGES: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../../shared/data/web-forum-52-dev"
);

const EVERY_READING: [RecordsWanted; 3] = [
    RecordsWanted::Both,
    RecordsWanted::PostsFirst,
    RecordsWanted::ThreadEntriesFirst,
];

/// What the two readings of `structure` give under `wanted`, as differences named after `page`;
/// the number of records the whole reading found is added to `records`.
fn check(
    page: &str,
    structure: &PageStructure,
    wanted: RecordsWanted,
    records: &mut usize,
) -> Vec<String> {
    let whole = structure.clone().read_records(wanted);
    let lean = structure.clone().read_list(wanted);
    *records += whole.posts.len() + whole.thread_entries.len();
    let mut wrong = Vec::new();
    let whole_times: Vec<_> = whole.posts.iter().map(|post| post.time).collect();
    if lean.post_times != whole_times {
        wrong.push(format!(
            "{page} {wanted:?}: post times {:?}, whole {whole_times:?}",
            lean.post_times
        ));
    }
    let without_starter = |entries: &[ThreadEntry]| -> Vec<ThreadEntry> {
        entries
            .iter()
            .map(|entry| ThreadEntry {
                author: None,
                ..entry.clone()
            })
            .collect()
    };
    if lean.thread_entries != without_starter(&whole.thread_entries) {
        wrong.push(format!(
            "{page} {wanted:?}: thread entries {:?}, whole {:?}",
            lean.thread_entries, whole.thread_entries
        ));
    }
    if lean
        .thread_entries
        .iter()
        .any(|entry| entry.author.is_some())
    {
        wrong.push(format!("{page} {wanted:?}: a starter was read"));
    }
    if lean.links != whole.links || lean.url != whole.url {
        wrong.push(format!("{page} {wanted:?}: the links differ"));
    }
    if lean.date_context != whole.date_context {
        wrong.push(format!("{page} {wanted:?}: the date context differs"));
    }
    wrong
}

#[test]
fn the_lean_reading_gives_the_records_and_times_of_the_whole_on_every_family() {
    let mut wrong = Vec::new();
    let mut records = 0;
    for family in FamilyName::ALL {
        let site = Site::build(SiteConfig::new(family, 5, Scale::Small));
        let url = |route: Route| site.url_of(&Address::canonical(route));
        let mut paths = vec![
            url(Route::Portal),
            url(Route::Board { board: 1, page: 1 }),
            url(Route::Board { board: 1, page: 2 }),
            url(Route::Board { board: 2, page: 1 }),
        ];
        let board = site.history().board(1).expect("a first board");
        for &thread in board.threads.iter().take(4) {
            paths.push(url(Route::Thread { thread, page: 1 }));
            paths.push(url(Route::Thread { thread, page: 2 }));
        }
        for path in paths {
            let structure = structure_of_page(&site, &path);
            let page = format!("{} {path}", family.name());
            for wanted in EVERY_READING {
                wrong.extend(check(&page, &structure, wanted, &mut records));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    assert!(records > 1_000, "only {records} records read");
}

#[test]
fn the_lean_reading_gives_the_records_and_times_of_the_whole_on_the_development_pages() {
    let mut files: Vec<_> = std::fs::read_dir(DEVELOPMENT_PAGES)
        .expect("the development pages are in shared/")
        .map(|entry| entry.expect("a readable directory").path())
        .filter(|path| {
            path.extension()
                .is_some_and(|extension| extension == "json")
        })
        .collect();
    files.sort();
    assert_eq!(files.len(), 53, "the 53 development pages");
    let fetched_at: Timestamp = "2024-06-01T12:00:00Z".parse().expect("a valid instant");
    let mut wrong = Vec::new();
    let mut records = 0;
    for file in &files {
        let json: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(file).expect("a readable page"))
                .expect("a JSON page");
        let html = json["html"].as_str().expect("the page's HTML");
        let url = Url::parse(json["url"].as_str().expect("the page's address")).expect("a URL");
        // The forum's offset from UTC is left to the page, as `trawl extract` leaves it.
        let structure =
            analyse_text_structure(html, "UTF-8", &url, &DateContext::new(fetched_at, None));
        let page = file.file_name().unwrap_or_default().to_string_lossy();
        for wanted in EVERY_READING {
            wrong.extend(check(&page, &structure, wanted, &mut records));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    assert!(records > 1_000, "only {records} records read");
}
