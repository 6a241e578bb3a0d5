//! The freshness views: how a watch keeps the crawl fresh, for the forum and for each board.
//!
//! Everything shown comes from [`trawl_watch::snapshot::WatchSnapshot`], the watch's public
//! reading of what it stored; the plots are drawn on the server ([`crate::plots`]).

use std::fmt::Write;

use jiff::Timestamp;
use trawl_watch::snapshot::{BoardFreshness, Delays, FetchesSpent, PlannedFetch, WatchSnapshot};

use crate::html::{SiteNav, escape, page, query_value};
use crate::plots;

/// Planned fetches listed before the rest are counted.
pub const PLANNED_SHOWN: usize = 50;

fn when(timestamp: Option<Timestamp>) -> String {
    timestamp.map_or("-".to_string(), |timestamp| {
        timestamp.strftime("%Y-%m-%d %H:%M:%S UTC").to_string()
    })
}

/// A span of seconds in the unit that reads best.
pub fn duration(seconds: f64) -> String {
    if seconds < 120.0 {
        format!("{seconds:.0} s")
    } else if seconds < 7200.0 {
        format!("{:.0} min", seconds / 60.0)
    } else if seconds < 2.0 * 86_400.0 {
        format!("{:.1} h", seconds / 3600.0)
    } else {
        format!("{:.1} days", seconds / 86_400.0)
    }
}

fn delay_figures(delays: &Delays) -> String {
    if delays.is_empty() {
        return "no new post stored yet".to_string();
    }
    let quantile = |share: f64| delays.quantile(share).map_or(0.0, |seconds| seconds as f64);
    format!(
        "{} new posts; mean {}, median {}, 95th percentile {}, longest {}",
        delays.len(),
        duration(delays.mean().unwrap_or_default()),
        duration(quantile(0.5)),
        duration(quantile(0.95)),
        duration(quantile(1.0))
    )
}

fn spent_figures(spent: &FetchesSpent) -> String {
    let total = spent.total();
    let share = |part: usize| {
        if total == 0 {
            0.0
        } else {
            100.0 * part as f64 / total as f64
        }
    };
    format!(
        "{total} fetches: {} discovery ({:.0}%), {} refresh ({:.0}%); {} failed",
        spent.discovery,
        share(spent.discovery),
        spent.refresh,
        share(spent.refresh),
        spent.failed
    )
}

/// A plot's SVG, or the reason it is missing, in a figure.
fn figure(drawn: Result<String, String>, label: &str) -> String {
    match drawn {
        Ok(svg) => format!(
            "<figure class=\"plot\" role=\"img\" aria-label=\"{}\">{svg}</figure>",
            escape(label)
        ),
        Err(reason) => format!("<p class=\"error\">{}</p>", escape(&reason)),
    }
}

fn board_name(board: &BoardFreshness) -> String {
    board.title.clone().unwrap_or_else(|| board.url.clone())
}

fn board_href(site: usize, list: u64) -> String {
    format!("/site/{site}/freshness/board/{list:016x}")
}

fn planned_table(site: usize, snapshot: &WatchSnapshot, fetches: &[&PlannedFetch]) -> String {
    if fetches.is_empty() {
        return "<p>No fetch planned now: the watch plans the next window when it starts it.</p>"
            .to_string();
    }
    let mut out = String::from(
        "<table class=\"planned\"><thead><tr><th>due</th><th>page</th><th>board</th></tr>\
         </thead><tbody>",
    );
    for fetch in fetches.iter().take(PLANNED_SHOWN) {
        let page = match &fetch.url {
            Some(url) => format!(
                "<a href=\"/site/{site}/page?url={}\">{}</a>{}",
                query_value(url),
                escape(url),
                if fetch.board_page {
                    " (board page)"
                } else {
                    ""
                }
            ),
            None => format!("page {} of a list the stored pages do not name", fetch.page),
        };
        let board =
            fetch
                .board
                .and_then(|list| snapshot.board(list))
                .map_or("-".to_string(), |board| {
                    format!(
                        "<a href=\"{}\">{}</a>",
                        board_href(site, board.list),
                        escape(&board_name(board))
                    )
                });
        let _ = write!(
            out,
            "<tr><td>{}</td><td>{page}</td><td>{board}</td></tr>",
            when(Some(fetch.at))
        );
    }
    out.push_str("</tbody></table>");
    if fetches.len() > PLANNED_SHOWN {
        let _ = write!(
            out,
            "<p>and {} more planned.</p>",
            fetches.len() - PLANNED_SHOWN
        );
    }
    out
}

/// What the view says when the store holds no watch.
pub fn not_watched(site: SiteNav<'_>) -> String {
    page(
        "Freshness",
        Some(site),
        None,
        "<p id=\"not-watched\">No watch has kept this crawl fresh yet (or its revisit policy \
         keeps no state to read). Start one with <code>trawl watch URL --db DATABASE</code>.</p>",
    )
}

fn stale_note(snapshot: &WatchSnapshot) -> &'static str {
    if snapshot.state_is_current {
        ""
    } else {
        "<p class=\"note\">Pages were stored after the watch last wrote its state (a crawl \
         resumed since): the planned fetches are those of the watch that last ran.</p>"
    }
}

/// The forum's freshness: figures, plots, the boards, and the next planned fetches.
pub fn forum_view(site: SiteNav<'_>, snapshot: &WatchSnapshot) -> String {
    let mut body = String::new();
    body.push_str(stale_note(snapshot));
    let crawl_end = match snapshot.crawl_pages {
        Some(pages) => format!(
            "{pages} pages stored by the crawl, {} by the watch",
            snapshot.pages.saturating_sub(pages)
        ),
        None => "the watch's state does not say where the crawl ended (it was written by an \
                 older trawl): no page is counted as the watch's until a watch runs again"
            .to_string(),
    };
    let _ = write!(
        body,
        "<dl class=\"figures\"><dt>pages</dt><dd id=\"watch-pages\">{}</dd>\
         <dt>watched</dt><dd>{} to {}</dd>\
         <dt>budget spent</dt><dd id=\"spent\">{}; {} reads of the portal for new boards</dd>\
         <dt>delay</dt><dd id=\"delay\">{}</dd>\
         <dt>next portal read</dt><dd>{}</dd></dl>",
        escape(&crawl_end),
        when(snapshot.first_fetch),
        when(snapshot.last_fetch),
        spent_figures(&snapshot.spent),
        snapshot.portal_reads,
        delay_figures(&snapshot.delays),
        when(snapshot.next_portal_read),
    );
    body.push_str("<div class=\"plots\">");
    body.push_str(&figure(
        plots::delay_distribution(&snapshot.delays, "delay of new posts, whole forum"),
        "the delay distribution of the forum's new posts",
    ));
    body.push_str(&figure(
        plots::fetches_per_day(&snapshot.days),
        "fetches per day, discovery and refresh",
    ));
    body.push_str(&figure(
        plots::mean_delay_per_day(&snapshot.days),
        "mean delay of new posts per day",
    ));
    body.push_str("</div><h2>Boards</h2>");
    body.push_str(
        "<table id=\"boards\"><thead><tr><th>board</th><th>pages</th><th>threads</th>\
         <th>polls</th><th>fetches (discovery / refresh)</th><th>new posts</th>\
         <th>mean delay</th><th>95th percentile</th></tr></thead><tbody>",
    );
    for board in &snapshot.boards {
        let _ = write!(
            body,
            "<tr><td><a href=\"{}\">{}</a></td><td>{}</td><td>{}</td><td>{}</td>\
             <td>{} / {}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            board_href(site.index, board.list),
            escape(&board_name(board)),
            board.pages,
            board.threads,
            board.polls.len(),
            board.spent.discovery,
            board.spent.refresh,
            board.delays.len(),
            board.delays.mean().map_or("-".to_string(), duration),
            board
                .delays
                .quantile(0.95)
                .map_or("-".to_string(), |seconds| duration(seconds as f64)),
        );
    }
    let _ = write!(
        body,
        "<tr><td>no board (the portal, threads no stored board names)</td><td></td><td></td>\
         <td></td><td>{} / {}</td><td>{}</td><td>{}</td><td></td></tr></tbody></table>",
        snapshot.unattributed.discovery,
        snapshot.unattributed.refresh,
        snapshot.unattributed_delays.len(),
        snapshot
            .unattributed_delays
            .mean()
            .map_or("-".to_string(), duration),
    );
    body.push_str("<h2>Next planned fetches</h2>");
    if !snapshot.discoveries_waiting.is_empty() {
        let _ = write!(
            body,
            "<p>First, {} pages the last read of the portal found.</p>",
            snapshot.discoveries_waiting.len()
        );
    }
    let planned: Vec<&PlannedFetch> = snapshot.next_fetches.iter().collect();
    body.push_str(&planned_table(site.index, snapshot, &planned));
    page("Freshness", Some(site), None, &body)
}

/// One board's freshness: its polls, its new posts' delays, its fetches and its next ones.
pub fn board_view(site: SiteNav<'_>, snapshot: &WatchSnapshot, board: &BoardFreshness) -> String {
    let mut body = String::new();
    body.push_str(stale_note(snapshot));
    let _ = write!(
        body,
        "<p><a href=\"/site/{}/freshness\">all boards</a></p><dl class=\"figures\">\
         <dt>board</dt><dd><a href=\"/site/{}/page?url={}\">{}</a></dd>\
         <dt>pages and threads</dt><dd>{} pages known, {} threads named</dd>\
         <dt>polls</dt><dd id=\"polls\">{}, last {}</dd>\
         <dt>budget spent</dt><dd id=\"spent\">{}</dd>\
         <dt>delay</dt><dd id=\"delay\">{}</dd></dl>",
        site.index,
        site.index,
        query_value(&board.url),
        escape(&board.url),
        board.pages,
        board.threads,
        board.polls.len(),
        when(board.polls.last().copied()),
        spent_figures(&board.spent),
        delay_figures(&board.delays),
    );
    body.push_str("<div class=\"plots\">");
    if let (Some(first), Some(last)) = (snapshot.first_fetch, snapshot.last_fetch) {
        body.push_str(&figure(
            plots::polls_over_time(&board.polls, first, last),
            "the board's polls over the watch",
        ));
    }
    body.push_str(&figure(
        plots::delay_distribution(&board.delays, "delay of new posts in this board"),
        "the delay distribution of the board's new posts",
    ));
    body.push_str("</div><h2>Next planned fetches of this board</h2>");
    let planned: Vec<&PlannedFetch> = snapshot
        .next_fetches
        .iter()
        .filter(|fetch| fetch.board == Some(board.list))
        .collect();
    body.push_str(&planned_table(site.index, snapshot, &planned));
    page(
        &format!("Freshness of {}", board_name(board)),
        Some(site),
        None,
        &body,
    )
}

/// The board a view's URL names (`{list:016x}`), parsed.
pub fn board_list_of(text: &str) -> Option<u64> {
    u64::from_str_radix(text, 16).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check_duration(seconds: f64, expected: &str) {
        assert_eq!(duration(seconds), expected, "{seconds}");
    }

    #[test]
    fn durations_read_in_their_unit() {
        check_duration(0.0, "0 s");
        check_duration(119.0, "119 s");
        check_duration(120.0, "2 min");
        check_duration(7199.0, "120 min");
        check_duration(7200.0, "2.0 h");
        check_duration(172_800.0, "2.0 days");
    }

    #[test]
    fn board_links_read_back() {
        let href = board_href(0, 0xfe01_0000_0000_00aa);
        let text = href.rsplit('/').next().unwrap();
        assert_eq!(board_list_of(text), Some(0xfe01_0000_0000_00aa));
        assert_eq!(board_list_of("not-hex"), None);
    }

    #[test]
    fn spent_figures_give_shares() {
        let spent = FetchesSpent {
            discovery: 1,
            refresh: 3,
            failed: 2,
        };
        assert_eq!(
            spent_figures(&spent),
            "4 fetches: 1 discovery (25%), 3 refresh (75%); 2 failed"
        );
        assert_eq!(
            spent_figures(&FetchesSpent::default()),
            "0 fetches: 0 discovery (0%), 0 refresh (0%); 0 failed"
        );
    }
}
