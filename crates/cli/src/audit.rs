//! `trawl audit`: what a crawl missed, by the forum's own statements (see `trawl_audit`; the
//! audit of a store and the gap closing that ends `trawl crawl` are `trawl_run`'s), and the
//! report in words.

use anyhow::{Context, Result, bail};
use clap::Args;
use trawl_audit::{AuditReport, GapKind, Missing};
use trawl_run::audit_store;
use trawl_store::{Store, StoreError, StoreLocation};

#[derive(Debug, Args)]
pub struct AuditArgs {
    /// The crawl database: a file, or a `postgres://` URL.
    #[arg(long)]
    pub db: StoreLocation,
    /// The site to audit, by the URL its crawl was started with, in a PostgreSQL database
    /// holding several (a file holds one crawl).
    #[arg(long)]
    pub site: Option<String>,
    /// Lists shown among the worst, and gaps listed one by one.
    #[arg(long, default_value_t = 10)]
    pub worst: usize,
}

/// The error `trawl audit` ends with when the crawl is known to be incomplete, so `main` can
/// exit with its own status (2) rather than the status of a failure to audit (1).
#[derive(Debug)]
pub struct Incomplete(pub String);

impl std::fmt::Display for Incomplete {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.write_str(&self.0)
    }
}

impl std::error::Error for Incomplete {}

pub fn run(args: AuditArgs) -> Result<()> {
    let store = open_crawl_to_read(&args.db, args.site.as_deref(), true)
        .with_context(|| format!("cannot audit {}", args.db))?;
    let portal = store
        .settings()?
        .map(|settings| settings.portal)
        .with_context(|| {
            format!(
                "{} holds no crawl yet; start one with `trawl crawl URL --db {}`",
                args.db, args.db
            )
        })?;
    let report = audit_store(&store)?;
    print!("{}", describe(&report, args.worst));
    if report.is_incomplete() {
        return Err(Incomplete(format!(
            "the crawl in {} is incomplete ({}); rerun `trawl crawl {portal} --db {}` to go on \
             and close its gaps",
            args.db,
            gaps_in_words(&report),
            args.db
        ))
        .into());
    }
    Ok(())
}

/// Opens the crawl at `db` that a reading command (audit, export) reads: a missing file or site
/// is told with the command that makes it.
pub fn open_crawl_to_read(
    db: &StoreLocation,
    site: Option<&str>,
    read_only: bool,
) -> Result<Store> {
    match Store::open_existing(db, site, read_only) {
        Ok(store) => Ok(store),
        Err(StoreError::Missing { .. }) if matches!(db, StoreLocation::File(_)) => {
            bail!("{db} does not exist; crawl first with `trawl crawl URL --db {db}`")
        }
        Err(error @ (StoreError::Missing { .. } | StoreError::NoSuchSite { .. })) => {
            Err(anyhow::Error::new(error)
                .context(format!("crawl first with `trawl crawl URL --db {db}`")))
        }
        Err(error) => Err(error.into()),
    }
}

/// The gaps in a few words: how many of each kind, and the URLs waiting.
fn gaps_in_words(report: &AuditReport) -> String {
    let mut parts: Vec<String> = GapKind::ALL
        .iter()
        .filter_map(|&kind| {
            let count = report.count(kind);
            (count > 0).then(|| format!("{count} {}", plural_of(kind, count)))
        })
        .collect();
    if report.totals.urls_waiting > 0 {
        parts.push(format!("{} URLs waiting", report.totals.urls_waiting));
    }
    parts.join(", ")
}

fn plural_of(kind: GapKind, count: usize) -> &'static str {
    match (kind, count == 1) {
        (GapKind::ListedThread, true) => "thread listed and never fetched",
        (GapKind::ListedThread, false) => "threads listed and never fetched",
        (GapKind::LinkedListPage, true) => "list page linked and never fetched",
        (GapKind::LinkedListPage, false) => "list pages linked and never fetched",
        (GapKind::NumberedListPage, true) => "list page within a pager's numbers, never fetched",
        (GapKind::NumberedListPage, false) => "list pages within pagers' numbers, never fetched",
        (GapKind::ShortThread, true) => "thread cut short",
        (GapKind::ShortThread, false) => "threads cut short",
    }
}

fn missing_in_words(missing: &Missing) -> String {
    match missing {
        Missing::NeverQueued => "never queued".into(),
        Missing::Waiting => "waiting".into(),
        Missing::Failed {
            status: 0,
            error: Some(error),
        } => format!("no answer: {error}"),
        Missing::Failed { status, .. } => format!("answered {status}"),
        Missing::TakenForAnother { queued_as } => {
            format!("the crawler takes it for {queued_as}")
        }
        Missing::PagesMissing {
            pages_fetched,
            pages_needed,
        } => format!("{pages_fetched} of {pages_needed} pages"),
    }
}

/// The report as `trawl audit` prints it: totals, the verdict, then the worst lists and the
/// first gaps (`worst` of each).
pub fn describe(report: &AuditReport, worst: usize) -> String {
    let totals = &report.totals;
    let mut text = String::new();
    let mut line = |line: String| {
        text.push_str(&line);
        text.push('\n');
    };
    line(format!(
        "pages: {} fetched, {} without a usable answer, {} URLs waiting",
        totals.pages_fetched, totals.pages_failed, totals.urls_waiting
    ));
    line(format!(
        "threads: {} listed by the boards, {} of them fetched ({} entries under links the \
         crawl does not follow to threads)",
        totals.threads_listed, totals.threads_listed_fetched, totals.entries_not_followed
    ));
    line(format!(
        "lists: {} boards and threads, {} of their pages known, {} fetched",
        totals.lists, totals.list_pages_known, totals.list_pages_fetched
    ));
    line(format!(
        "posts: {} counted by the boards for threads fetched, {} of them held ({} posts per \
         page; counts read as {})",
        totals.posts_counted,
        totals.posts_stored_of_counted,
        totals.posts_per_page,
        if totals.counts_are_replies {
            "replies"
        } else {
            "posts"
        }
    ));
    if totals.without_roles {
        line(
            "roles: none (a crawl without a plan): the forum's counts cannot be read, only the \
             URLs waiting"
                .into(),
        );
    }
    if !report.unread.is_empty() {
        let posts: u64 = report
            .unread
            .iter()
            .map(|thread| thread.counted - thread.stored)
            .sum();
        line(format!(
            "unread: {} threads hold {posts} posts fewer than counted though all their pages \
             were fetched (page analysis, not the crawl)",
            report.unread.len()
        ));
    }
    if !report.is_incomplete() {
        line("complete: no gap against the forum's own counts".into());
        return text;
    }
    line(format!(
        "incomplete: {}; {} posts counted and missing",
        gaps_in_words(report),
        report.posts_missing()
    ));
    let lists = report.worst_lists(worst);
    if !lists.is_empty() {
        line("worst lists:".into());
        for list in lists {
            line(format!(
                "  {} gaps, {} posts missing: {}",
                list.gaps, list.posts_missing, list.list
            ));
        }
    }
    if !report.gaps.is_empty() {
        line(format!(
            "gaps ({} shown of {}):",
            worst.min(report.gaps.len()),
            report.gaps.len()
        ));
        for gap in report.gaps.iter().take(worst) {
            line(format!(
                "  {} ({}): {}",
                gap.kind.name(),
                missing_in_words(&gap.missing),
                gap.url
            ));
        }
    }
    text
}
