//! Boards and threads put back together from the pages a crawl stored, as every reader of a
//! store (the exports, the console's thread reader) shows them.

use trawl_crawl::lists::{AssembledList, ListPage, assemble_lists};
use trawl_learn::sitemap::Role;
use trawl_store::StoredPage;

/// The role each stored page was fetched in (`None` for a crawl without a plan) and the lists
/// the pages make, joined by their page-flipping links; list pages are indexes into `pages`.
pub fn assemble_stored_lists(pages: &[StoredPage]) -> (Vec<Option<Role>>, Vec<AssembledList>) {
    let roles: Vec<Option<Role>> = pages
        .iter()
        .map(|page| page.record.role.as_deref().and_then(Role::from_name))
        .collect();
    let input: Vec<ListPage<'_>> = pages
        .iter()
        .zip(&roles)
        .map(|(page, role)| ListPage {
            url: &page.record.url,
            role: *role,
            list_links: &page.record.list_links,
            title: page.record.title.as_deref(),
        })
        .collect();
    let lists = assemble_lists(&input);
    (roles, lists)
}
