//! The audit read from the store's digests of pages (`Store::audit_pages`) against the audit
//! read from the pages themselves, as `audit_store` read them before the digests (every list
//! page's body scanned for its links, every post's text): on simulated forums of several
//! families crawled in process through the real driver and store, with pages failing, the two
//! reports must be the same.

use std::sync::Arc;

use trawl_audit::{PostsSeen, anchor_links, post_identity};
use trawl_crawl::CrawlStrategy;
use trawl_eval::learning::{SIM_ORIGIN, learn_in_process};
use trawl_learn::traverse::Strategy;
use trawl_model::{FetchError, FetchRequest, FetchResponse, FixedClock};
use trawl_sim::{FamilyName, Scale, SimFetcher, Site, SiteConfig};

use super::*;
use crate::open_crawl;

/// Fails every seventh request it is asked: threads, boards and their later pages go missing
/// alike, and the audit has gaps of every kind to name.
struct EverySeventhFails {
    inner: SimFetcher,
    asked: std::sync::atomic::AtomicUsize,
}

impl Fetcher for EverySeventhFails {
    fn fetch(&self, request: &FetchRequest) -> Result<FetchResponse, FetchError> {
        let asked = self
            .asked
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        if asked % 7 == 6 {
            return Err(FetchError::Connection {
                url: request.url.clone(),
                reason: "failed on purpose".into(),
            });
        }
        self.inner.fetch(request)
    }
}

/// The audit of `store` read as `audit_store` read it before the digests: from the pages.
fn audit_of_the_pages(store: &Store) -> AuditReport {
    let crawler = stored_crawler(store).unwrap();
    let mut record = CrawlRecord::default();
    let list_roles = trawl_audit::list_role_names();
    store
        .for_each_page_outline(trawl_audit::TEXT_IN_IDENTITY, &list_roles, |page| {
            let record_of_page = page.record;
            let redirect_to = (300..400)
                .contains(&record_of_page.status)
                .then(|| {
                    let location = record_of_page
                        .headers
                        .iter()
                        .find(|(name, _)| name.eq_ignore_ascii_case("location"))?;
                    Url::parse(&record_of_page.url).ok()?.join(&location.1).ok()
                })
                .flatten()
                .map(String::from);
            let posts = PostsSeen::of(record_of_page.posts.iter().map(|post| {
                (
                    post_identity(
                        post.permalink.as_deref(),
                        post.author.as_deref(),
                        post.time.as_deref(),
                        &post.text,
                    ),
                    post.time.as_deref(),
                )
            }));
            let links = anchor_links(&record_of_page.body, &record_of_page.url)
                .into_iter()
                .filter_map(|link| {
                    let mut target = Url::parse(&link).ok()?;
                    target.set_fragment(None);
                    Some(LinkSeen {
                        queued_as: crawler.queued_spelling(&target).to_string(),
                        url: link,
                    })
                })
                .collect();
            let thread_entries = record_of_page
                .thread_entries
                .into_iter()
                .map(|entry| EntrySeen {
                    url: Url::parse(&entry.url)
                        .map(|url| crawler.queued_spelling(&url).to_string())
                        .unwrap_or(entry.url),
                    title: entry.title,
                    replies: entry.replies,
                    last_reply: entry.last_reply,
                })
                .collect();
            record.pages.push(FetchedPage {
                links,
                role: record_of_page.role.as_deref().and_then(Role::from_name),
                url: record_of_page.url,
                status: record_of_page.status,
                error: record_of_page.error,
                redirect_to,
                list_links: record_of_page.list_links,
                title: record_of_page.title,
                posts,
                thread_entries,
            });
        })
        .unwrap();
    let frontier = store.unfetched_frontier().unwrap();
    record.waiting = frontier.waiting;
    record.passed_over = frontier.passed_over;
    trawl_audit::audit(&record)
}

/// Crawls `family` (seed 2) through a fetcher failing every seventh request, stopped after
/// `max_pages` when given, and checks the two audits agree.
fn check(family: FamilyName, max_pages: Option<usize>) {
    let site = Arc::new(Site::build(SiteConfig::new(family, 2, Scale::Small)));
    let (learned, _, _) = learn_in_process(&site, 300, 2, Strategy::Skeleton).unwrap();
    let db = std::env::temp_dir().join(format!(
        "trawl-audit-digests-{}-{}.db",
        family.name(),
        std::process::id()
    ));
    trawl_store::remove_database_files(&db);
    let mut store = Store::open(&db).unwrap();
    let fetcher = CookieJarFetcher::new(EverySeventhFails {
        inner: SimFetcher::new(Arc::clone(&site), SIM_ORIGIN),
        asked: Default::default(),
    });
    let clock = FixedClock::new(jiff::Timestamp::from_second(site.history().end).unwrap());
    let portal = Url::parse(&format!("{SIM_ORIGIN}{}", site.portal_path())).unwrap();
    let mut crawler = open_crawl(&mut store, &portal, &fetcher, &clock, None, || {
        Ok::<_, RunError>(CrawlStrategy::Plan(Box::new(learned.plan)))
    })
    .unwrap()
    .crawler;
    let options = DriveOptions {
        max_pages,
        workers: 1,
        paced: false,
    };
    drive(&mut store, &mut crawler, &fetcher, &clock, options, |_| {}).unwrap();
    let from_digests = audit_store(&store).unwrap();
    let from_pages = audit_of_the_pages(&store);
    drop(store);
    trawl_store::remove_database_files(&db);
    let name = family.name();
    assert!(
        !from_pages.gaps.is_empty(),
        "{name}: the failures must leave gaps to compare"
    );
    assert_eq!(from_digests, from_pages, "{name}");
}

#[test]
fn the_audit_from_the_digests_is_the_audit_from_the_pages() {
    for family in [
        FamilyName::Phpbb,
        FamilyName::Xenforo,
        FamilyName::Discourse,
        FamilyName::Vbulletin,
    ] {
        check(family, None);
    }
    check(FamilyName::Smf, Some(150));
}
