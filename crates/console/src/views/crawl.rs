//! The crawl's views: the site picker, progress, the audit's gaps, threads and single pages.

use std::collections::BTreeMap;
use std::fmt::Write;

use trawl_audit::Missing;
use trawl_store::{CrawlSettings, StoredPage};

use crate::data::{AuditNow, LoadedPages, Progress, Thread, ThreadsNow};
use crate::html::{SiteNav, escape, page, query_value};

/// `count` with its noun, singular for one.
fn counted(count: usize, one: &str, many: &str) -> String {
    format!("{count} {}", if count == 1 { one } else { many })
}

/// Threads listed on one page of the thread list.
pub const THREADS_PER_PAGE: usize = 100;
/// Gaps listed under one board or thread before the rest are counted.
pub const GAPS_PER_LIST: usize = 25;
/// Boards and threads listed with their gaps.
pub const LISTS_SHOWN: usize = 200;

/// The sites a PostgreSQL store holds, to pick one.
pub fn site_picker(database: &str, sites: &[String]) -> String {
    let mut body = format!(
        "<p>{} holds the crawls of {} sites.</p><ul class=\"sites\">",
        escape(database),
        sites.len()
    );
    for (index, site) in sites.iter().enumerate() {
        let _ = write!(
            body,
            "<li><a href=\"/site/{index}/\">{}</a></li>",
            escape(site)
        );
    }
    body.push_str("</ul>");
    page("Sites", None, None, &body)
}

fn when(timestamp: Option<jiff::Timestamp>) -> String {
    timestamp.map_or("-".to_string(), |timestamp| {
        timestamp.strftime("%Y-%m-%d %H:%M:%S UTC").to_string()
    })
}

/// Pages read of a crawl being read, in words.
fn reading_words(read: usize, total: usize) -> String {
    format!(
        "The console is reading this crawl's {total} pages ({read} read so far); this page \
         refreshes itself until they are read."
    )
}

/// A view that needs the crawl's pages while they are first read.
pub fn reading_notice(read: usize, total: usize) -> String {
    page(
        "Reading the crawl",
        None,
        Some(1),
        &format!(
            "<p id=\"reading\">{}</p>",
            escape(&reading_words(read, total))
        ),
    )
}

/// The overview while the crawl's pages are first read: what the store counts at once (the
/// pages), the rest once read; refreshing itself every second.
pub fn overview_while_reading(
    site: SiteNav<'_>,
    settings: &CrawlSettings,
    pages: usize,
    read: usize,
    watched: bool,
) -> String {
    let body = format!(
        "<p id=\"reading\">{}{}</p><dl class=\"figures\">\
         <dt>pages</dt><dd id=\"pages\">{pages}</dd>\
         <dt>posts, rate, frontier, errors</dt><dd>shown once the pages are read</dd>\
         <dt>strategy</dt><dd>{}, plan generation {}</dd><dt>started</dt><dd>{}</dd></dl>",
        escape(&reading_words(read, pages)),
        if watched {
            " A watch keeps this crawl fresh."
        } else {
            ""
        },
        escape(&settings.strategy),
        settings.plan_generation,
        when(Some(settings.started_at)),
    );
    page("Crawl", Some(site), Some(1), &body)
}

/// How the crawl stands; refreshing itself every few seconds while it runs.
pub fn overview(
    site: SiteNav<'_>,
    settings: &CrawlSettings,
    progress: &Progress,
    running: bool,
    watched: bool,
) -> String {
    let mut body = String::new();
    let _ = write!(
        body,
        "<p id=\"state\">{}{}</p><dl class=\"figures\">\
         <dt>pages</dt><dd id=\"pages\">{}</dd><dt>posts</dt><dd id=\"posts\">{}</dd>\
         <dt>rate</dt><dd id=\"rate\">{:.0} pages a minute over the last minute, {:.1} overall</dd>\
         <dt>frontier</dt><dd id=\"frontier\">{} URLs waiting</dd>\
         <dt>errors</dt><dd id=\"errors\">{} (no answer, or status 400 and above)</dd>\
         <dt>strategy</dt><dd>{}, plan generation {}</dd>\
         <dt>started</dt><dd>{}</dd><dt>first and last fetch</dt><dd>{} · {}</dd></dl>",
        if running {
            "Fetching: this page refreshes every 5 seconds."
        } else {
            "Not fetching now."
        },
        if watched {
            " A watch keeps this crawl fresh."
        } else {
            ""
        },
        progress.pages,
        progress.posts,
        progress.recent_rate,
        progress.overall_rate,
        progress.frontier,
        progress.errors,
        escape(&settings.strategy),
        settings.plan_generation,
        when(Some(settings.started_at)),
        when(progress.first_fetch),
        when(progress.last_fetch),
    );
    body.push_str(
        "<h2>Fetches by role</h2><table><thead><tr><th>role</th><th>pages</th></tr></thead><tbody>",
    );
    for (role, count) in &progress.by_role {
        let _ = write!(
            body,
            "<tr><td>{}</td><td>{count}</td></tr>",
            escape(role.as_deref().unwrap_or("not placed"))
        );
    }
    body.push_str("</tbody></table>");
    page("Crawl", Some(site), running.then_some(5), &body)
}

fn missing_words(missing: &Missing) -> String {
    match missing {
        Missing::NeverQueued => "never queued".to_string(),
        Missing::Waiting => "waiting in the frontier".to_string(),
        Missing::Failed { status, error } => match error {
            Some(error) => format!("failed: {error}"),
            None => format!("failed with status {status}"),
        },
        Missing::TakenForAnother { queued_as } => format!("taken for {queued_as}"),
        Missing::PagesMissing {
            pages_fetched,
            pages_needed,
        } => format!("{pages_fetched} of {pages_needed} pages fetched"),
    }
}

/// The audit: totals, then the gaps grouped by the board or thread they belong to. While an
/// audit is being made the page refreshes itself until it is there.
pub fn audit_view(site: SiteNav<'_>, now: &AuditNow, loaded: &LoadedPages) -> String {
    let (done, current) = match now {
        AuditNow::Made { done, current } => (done, *current),
        AuditNow::Making => {
            let body = "<p id=\"making\">The audit is being made: it reads the whole crawl. \
                        This page refreshes every 2 seconds until it is there.</p>";
            return page("Audit", Some(site), Some(2), body);
        }
        AuditNow::Failed(words) => {
            let body = format!("<p class=\"error\" id=\"error\">{}</p>", escape(words));
            return page("Audit", Some(site), None, &body);
        }
    };
    let report = &done.report;
    let totals = &report.totals;
    let mut body = String::new();
    if !current {
        let _ = write!(
            body,
            "<p class=\"notice\" id=\"stale\">This audit read the crawl at {} pages; it holds {} \
             now, and a new audit is being made (this page refreshes every 5 seconds).</p>",
            done.pages, loaded.count
        );
    }
    let _ = write!(
        body,
        "<p id=\"verdict\">{}</p><dl class=\"figures\"><dt>pages fetched</dt><dd>{}</dd>\
         <dt>failed</dt><dd>{}</dd><dt>URLs waiting</dt><dd>{}</dd>\
         <dt>threads listed</dt><dd>{} ({} fetched)</dd><dt>list pages</dt><dd>{} known, {} fetched</dd>\
         <dt>posts counted</dt><dd>{} ({} stored)</dd><dt>gaps</dt><dd id=\"gaps\">{}</dd></dl>",
        if report.is_incomplete() {
            "The crawl is incomplete: the forum states pages it lacks."
        } else {
            "Nothing the forum states is missing."
        },
        totals.pages_fetched,
        totals.pages_failed,
        totals.urls_waiting,
        totals.threads_listed,
        totals.threads_listed_fetched,
        totals.list_pages_known,
        totals.list_pages_fetched,
        totals.posts_counted,
        totals.posts_stored_of_counted,
        report.gaps.len()
    );
    let mut by_list: BTreeMap<&str, Vec<&trawl_audit::Gap>> = BTreeMap::new();
    for gap in &report.gaps {
        by_list
            .entry(gap.list.as_deref().unwrap_or(""))
            .or_default()
            .push(gap);
    }
    let mut lists: Vec<(&str, Vec<&trawl_audit::Gap>)> = by_list.into_iter().collect();
    lists.sort_by(|a, b| b.1.len().cmp(&a.1.len()).then(a.0.cmp(b.0)));
    for (list, gaps) in lists.iter().take(LISTS_SHOWN) {
        let role = loaded
            .fetches_of_url
            .get(*list)
            .and_then(|fetches| loaded.pages[fetches[0]].record.role.as_deref());
        let heading = match (list.is_empty(), role) {
            (true, _) => "Gaps of no list".to_string(),
            (false, Some("thread")) => format!(
                "Thread <a href=\"/site/{}/thread?url={}\">{}</a>",
                site.index,
                query_value(list),
                escape(list)
            ),
            (false, _) => format!(
                "Board <a href=\"/site/{}/page?url={}\">{}</a>",
                site.index,
                query_value(list),
                escape(list)
            ),
        };
        let posts: u64 = gaps.iter().map(|gap| gap.posts_missing).sum();
        let _ = write!(
            body,
            "<section class=\"gaps\"><h2>{heading}</h2><p>{} gaps, {posts} posts missing by the \
             forum's counts.</p><ul>",
            gaps.len()
        );
        for gap in gaps.iter().take(GAPS_PER_LIST) {
            let _ = write!(
                body,
                "<li>{}: <a href=\"{}\" rel=\"noreferrer\">{}</a> ({}){}</li>",
                escape(gap.kind.name()),
                escape(&gap.url),
                escape(&gap.url),
                escape(&missing_words(&gap.missing)),
                if loaded.fetches_of_url.contains_key(&gap.url) {
                    format!(
                        " · <a href=\"/site/{}/page?url={}\">stored page</a>",
                        site.index,
                        query_value(&gap.url)
                    )
                } else {
                    String::new()
                }
            );
        }
        if gaps.len() > GAPS_PER_LIST {
            let _ = write!(body, "<li>and {} more</li>", gaps.len() - GAPS_PER_LIST);
        }
        body.push_str("</ul></section>");
    }
    if lists.len() > LISTS_SHOWN {
        let _ = write!(
            body,
            "<p>And {} more boards and threads with gaps.</p>",
            lists.len() - LISTS_SHOWN
        );
    }
    page("Audit", Some(site), (!current).then_some(5), &body)
}

/// One page of the thread list, from thread `from` on.
pub fn threads_view(
    site: SiteNav<'_>,
    loaded: &LoadedPages,
    now: &ThreadsNow,
    from: usize,
) -> String {
    let threads = now.threads.as_slice();
    let mut body = format!(
        "<p>{} threads put back together from {} stored pages.</p>",
        threads.len(),
        now.pages
    );
    let updating = now.pages < loaded.count;
    if updating {
        let _ = write!(
            body,
            "<p class=\"notice\" id=\"stale\">The store holds {} pages now; the threads are \
             being put together again (this page refreshes every 5 seconds).</p>",
            loaded.count
        );
    }
    body.push_str(
        "<table><thead><tr><th>thread</th><th>board</th><th>pages</th><th>posts</th></tr>\
         </thead><tbody>",
    );
    for thread in threads.iter().skip(from).take(THREADS_PER_PAGE) {
        let url = thread.url(&loaded.pages);
        let _ = write!(
            body,
            "<tr><td><a href=\"/site/{}/thread?url={}\">{}</a></td><td>{}</td><td>{}</td><td>{}</td></tr>",
            site.index,
            query_value(url),
            escape(thread.title.as_deref().unwrap_or(url)),
            escape(thread.board.as_deref().unwrap_or("-")),
            thread.pages.len(),
            loaded.posts_of(thread).len()
        );
    }
    body.push_str("</tbody></table><p class=\"pager\">");
    if from > 0 {
        let _ = write!(
            body,
            "<a href=\"/site/{}/threads?from={}\" rel=\"prev\">previous</a> ",
            site.index,
            from.saturating_sub(THREADS_PER_PAGE)
        );
    }
    if from + THREADS_PER_PAGE < threads.len() {
        let _ = write!(
            body,
            "<a href=\"/site/{}/threads?from={}\" rel=\"next\">next</a>",
            site.index,
            from + THREADS_PER_PAGE
        );
    }
    body.push_str("</p>");
    page("Threads", Some(site), updating.then_some(5), &body)
}

/// A thread reassembled: its pages in order, then every post with its author and time.
pub fn thread_view(site: SiteNav<'_>, loaded: &LoadedPages, thread: &Thread) -> String {
    let pages = &loaded.pages;
    let posts = loaded.posts_of(thread);
    let url = thread.url(pages);
    let mut body = String::new();
    if let Some(board) = &thread.board {
        let _ = write!(
            body,
            "<p>Listed on <a href=\"/site/{}/page?url={}\">{}</a>.</p>",
            site.index,
            query_value(board),
            escape(board)
        );
    }
    let _ = write!(
        body,
        "<h2>{}</h2><ol class=\"thread-pages\">",
        counted(thread.pages.len(), "page", "pages")
    );
    for &index in &thread.pages {
        let record = &pages[index].record;
        let _ = write!(
            body,
            "<li><a href=\"/site/{}/page?url={}\">{}</a> ({} posts, fetched {})</li>",
            site.index,
            query_value(&record.url),
            escape(&record.url),
            record.posts.len(),
            when(Some(record.fetched_at))
        );
    }
    let _ = write!(
        body,
        "</ol><h2>{}</h2>",
        counted(posts.len(), "post", "posts")
    );
    for &(fetch, index) in &posts {
        let post = &pages[fetch].record.posts[index];
        let _ = write!(
            body,
            "<article class=\"post\"><header><strong>{}</strong> · <time>{}</time>{}</header><p>{}</p></article>",
            escape(post.author.as_deref().unwrap_or("(no author read)")),
            escape(post.time.as_deref().unwrap_or("(no time read)")),
            post.permalink
                .as_deref()
                .map(|link| format!(
                    " · <a href=\"{}\" rel=\"noreferrer\">permalink</a>",
                    escape(link)
                ))
                .unwrap_or_default(),
            escape(&post.text)
        );
    }
    page(
        thread.title.as_deref().unwrap_or(url),
        Some(site),
        None,
        &body,
    )
}

/// Every fetch of one URL with what was read from it.
pub fn page_view(site: SiteNav<'_>, url: &str, fetches: &[&StoredPage]) -> String {
    let mut body = format!(
        "<p><a href=\"{}\" rel=\"noreferrer\">{}</a> (the forum's page)</p>",
        escape(url),
        escape(url)
    );
    if fetches.is_empty() {
        body.push_str("<p id=\"absent\">The store holds no fetch of this URL.</p>");
    }
    for fetched in fetches {
        let record = &fetched.record;
        let _ = write!(
            body,
            "<section><h2>Fetch {} at {}</h2><dl class=\"figures\"><dt>status</dt><dd>{}{}</dd>\
             <dt>vertex</dt><dd>{}</dd><dt>role</dt><dd>{}</dd><dt>title</dt><dd>{}</dd>\
             <dt>page-flipping links</dt><dd>{}</dd></dl>",
            fetched.id,
            when(Some(record.fetched_at)),
            record.status,
            record
                .error
                .as_deref()
                .map(|error| format!(" ({})", escape(error)))
                .unwrap_or_default(),
            record
                .vertex
                .map(|vertex| format!(
                    "<a href=\"{}\">{vertex}</a>",
                    super::plan::vertex_href(site.index, vertex as usize, fetched.plan_generation)
                ))
                .unwrap_or("-".to_string()),
            escape(record.role.as_deref().unwrap_or("-")),
            escape(record.title.as_deref().unwrap_or("-")),
            record
                .list_links
                .iter()
                .map(|link| format!(
                    "<a href=\"/site/{}/page?url={}\">{}</a>",
                    site.index,
                    query_value(link),
                    escape(link)
                ))
                .collect::<Vec<_>>()
                .join(", ")
        );
        if !record.thread_entries.is_empty() {
            let _ = write!(
                body,
                "<h3>{} thread entries</h3><table><thead><tr><th>title</th><th>starter</th>\
                 <th>replies</th><th>last reply</th></tr></thead><tbody>",
                record.thread_entries.len()
            );
            for entry in &record.thread_entries {
                let _ = write!(
                    body,
                    "<tr><td><a href=\"/site/{}/thread?url={}\">{}</a></td><td>{}</td><td>{}</td><td>{}</td></tr>",
                    site.index,
                    query_value(entry.url.split('#').next().unwrap_or(&entry.url)),
                    escape(&entry.title),
                    escape(entry.author.as_deref().unwrap_or("-")),
                    entry
                        .replies
                        .map_or("-".to_string(), |replies| replies.to_string()),
                    escape(entry.last_reply.as_deref().unwrap_or("-"))
                );
            }
            body.push_str("</tbody></table>");
        }
        if !record.posts.is_empty() {
            let _ = write!(body, "<h3>{} posts</h3>", record.posts.len());
            for post in &record.posts {
                let _ = write!(
                    body,
                    "<article class=\"post\"><header><strong>{}</strong> · <time>{}</time></header><p>{}</p></article>",
                    escape(post.author.as_deref().unwrap_or("(no author read)")),
                    escape(post.time.as_deref().unwrap_or("(no time read)")),
                    escape(&post.text)
                );
            }
        }
        body.push_str("</section>");
    }
    page("Page", Some(site), None, &body)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings() -> CrawlSettings {
        CrawlSettings {
            portal: "http://f.test/".to_string(),
            strategy: "plan".to_string(),
            plan_json: None,
            plan_generation: 2,
            started_at: "2026-11-27T10:00:00Z".parse().unwrap(),
            order: None,
            patterns_json: None,
        }
    }

    /// The overview shown while a big crawl is first read, for (pages, read).
    fn check_reading(counts: (usize, usize), watched: bool, expected: &[&str]) {
        let site = SiteNav {
            index: 0,
            name: "http://f.test/",
            several: false,
        };
        let (pages, read) = counts;
        let shown = overview_while_reading(site, &settings(), pages, read, watched);
        for words in expected {
            assert!(shown.contains(words), "{words} missing from {shown}");
        }
        // It refreshes itself until the pages are read, and says it is reading.
        assert!(shown.contains("http-equiv=\"refresh\" content=\"1\""));
        assert!(shown.contains("<p id=\"reading\">"));
    }

    #[test]
    fn the_overview_while_reading_shows_the_stores_page_count() {
        check_reading(
            (100_000, 0),
            false,
            &[
                "id=\"pages\">100000<",
                "posts, rate, frontier, errors",
                "reading this crawl&#39;s 100000 pages (0 read so far)",
                "plan, plan generation 2",
            ],
        );
        check_reading(
            (5, 3),
            true,
            &["(3 read so far)", "A watch keeps this crawl fresh."],
        );
    }

    #[test]
    fn a_view_waiting_for_the_pages_says_how_far_the_reading_is() {
        let shown = reading_notice(40_000, 100_000);
        assert!(shown.contains("id=\"reading\""));
        assert!(shown.contains("100000 pages (40000 read so far)"));
        assert!(shown.contains("http-equiv=\"refresh\" content=\"1\""));
    }
}
