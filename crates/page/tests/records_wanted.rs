//! Reading only the records a page's role holds (`RecordsWanted`) gives what reading both kinds
//! gives, less the other kind where the first was found: a thread page keeps its posts, a list
//! page its thread entries, and a page read under the wrong role loses nothing it had.

mod common;

use trawl_page::analysis::{PageAnalysis, RecordsWanted};
use trawl_sim::{Address, FamilyName, Route, Scale, Site, SiteConfig};

use common::{analyse_page, structure_of_page};

/// What reading `wanted` must give, from what reading both kinds gave.
fn expected(both: &PageAnalysis, wanted: RecordsWanted) -> (usize, usize, bool, bool) {
    match wanted {
        RecordsWanted::Both => (both.posts.len(), both.thread_entries.len(), true, true),
        RecordsWanted::PostsFirst => {
            let entries_kept = both.posts.is_empty();
            let entries = if entries_kept {
                both.thread_entries.len()
            } else {
                0
            };
            (both.posts.len(), entries, true, entries_kept)
        }
        RecordsWanted::ThreadEntriesFirst => {
            let posts_kept = both.thread_entries.is_empty();
            let posts = if posts_kept { both.posts.len() } else { 0 };
            (posts, both.thread_entries.len(), posts_kept, true)
        }
    }
}

/// Reads `path` of `site` under every `RecordsWanted` and returns each difference from what
/// [`expected`] says, one line each. `kind` says which records the page must hold at all, so
/// the check cannot pass on a page that has none.
fn check(site: &Site, path: &str, kind: PageKind) -> Vec<String> {
    let both = analyse_page(site, path);
    let mut wrong = Vec::new();
    match kind {
        PageKind::Thread if both.posts.is_empty() => wrong.push(format!("{path}: no post")),
        PageKind::List if both.thread_entries.is_empty() => {
            wrong.push(format!("{path}: no thread entry"))
        }
        _ => {}
    }
    for wanted in [RecordsWanted::PostsFirst, RecordsWanted::ThreadEntriesFirst] {
        let read = structure_of_page(site, path).read_records(wanted);
        let (posts, entries, posts_same, entries_same) = expected(&both, wanted);
        if read.posts.len() != posts || (posts_same && read.posts != both.posts) {
            wrong.push(format!(
                "{path} {wanted:?}: {} posts, {posts} expected (both: {})",
                read.posts.len(),
                both.posts.len()
            ));
        }
        if read.thread_entries.len() != entries
            || (entries_same && read.thread_entries != both.thread_entries)
        {
            wrong.push(format!(
                "{path} {wanted:?}: {} thread entries, {entries} expected (both: {})",
                read.thread_entries.len(),
                both.thread_entries.len()
            ));
        }
        if read.links.len() != both.links.len() || read.regions != both.regions {
            wrong.push(format!("{path} {wanted:?}: the structure changed"));
        }
    }
    wrong
}

#[derive(Debug, Clone, Copy)]
enum PageKind {
    Thread,
    List,
    Any,
}

#[test]
fn reading_by_role_keeps_every_record_of_the_role_on_every_family() {
    let mut wrong = Vec::new();
    for family in FamilyName::ALL {
        let site = Site::build(SiteConfig::new(family, 5, Scale::Small));
        let url = |route: Route| site.url_of(&Address::canonical(route));
        let mut pages = vec![
            (url(Route::Portal), PageKind::Any),
            (url(Route::Board { board: 1, page: 1 }), PageKind::List),
            (url(Route::Board { board: 2, page: 1 }), PageKind::List),
        ];
        let board = site.history().board(1).expect("a first board");
        for &thread in board.threads.iter().take(3) {
            pages.push((url(Route::Thread { thread, page: 1 }), PageKind::Thread));
        }
        for (path, kind) in pages {
            wrong.extend(
                check(&site, &path, kind)
                    .into_iter()
                    .map(|line| format!("{}: {line}", family.name())),
            );
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
