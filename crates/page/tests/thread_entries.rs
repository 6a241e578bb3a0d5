//! Thread entries of handwritten board pages read by the whole analysis: the last-reply time when
//! the template prints recent and older last replies with different markup in the same cell.

use jiff::Timestamp;
use trawl_page::analysis::analyse_text;
use trawl_page::time::DateContext;
use url::Url;

/// One board row: title link, starter cell with the creation day, counts, and the last-reply
/// cell, which holds either an exact time in a title attribute around a relative text (recent
/// replies) or a bare date and time (older ones), as Discuz! prints them.
fn row(thread: u32, created: &str, last_reply: &str) -> String {
    format!(
        "<tbody id=\"normalthread_{thread}\"><tr><td class=\"icn\"></td>\
         <th class=\"common\"><a href=\"/thread-{thread}-1-1.html\" class=\"s xst\">Topic number {thread}</a></th>\
         <td class=\"by\"><cite><a href=\"/space-uid-{thread}.html\">starter{thread}</a></cite><em><span>{created}</span></em></td>\
         <td class=\"num\"><a href=\"/thread-{thread}-1-1.html\" class=\"xi2\">{replies}</a><em>{views}</em></td>\
         <td class=\"by\"><cite><a href=\"/space-uid-9.html\">replier</a></cite><em>{last_reply}</em></td></tr></tbody>",
        replies = thread % 7,
        views = thread * 10 + 3,
    )
}

fn recent(exact: &str, shown: &str) -> String {
    format!(
        "<a href=\"/forum.php?mod=redirect&amp;goto=lastpost\"><span title=\"{exact}\">{shown}</span></a>"
    )
}

fn last_replies(rows: &[String]) -> Vec<String> {
    let html = format!(
        "<html><head><title>Board</title></head><body><div id=\"nav\"><a href=\"/forum.php\">Home</a></div>\
         <table id=\"threadlisttableid\">{}</table><div id=\"ft\"><a href=\"/about.html\">About</a></div></body></html>",
        rows.concat()
    );
    let url = Url::parse("http://forum.test/forum-2-1.html").expect("a valid URL");
    let fetched_at: Timestamp = "2026-01-01T00:00:00Z".parse().expect("a valid instant");
    let analysis = analyse_text(
        &html,
        "UTF-8",
        &url,
        &DateContext::new(fetched_at, Some(8 * 3600)),
    );
    analysis
        .thread_entries
        .iter()
        .map(|entry| {
            entry
                .last_reply
                .map_or_else(String::new, |time| time.to_iso8601())
        })
        .collect()
}

#[test]
fn last_replies_in_one_cell_with_two_markups_are_one_column() {
    let rows = [
        row(
            1,
            "2025-12-11",
            &recent("2026-1-1 02:00:06", "5&nbsp;小时前"),
        ),
        row(
            2,
            "2025-12-31",
            &recent("2026-1-1 01:48:26", "6&nbsp;小时前"),
        ),
        row(
            3,
            "2025-12-18",
            &recent("2025-12-31 21:09:06", "昨天&nbsp;21:09"),
        ),
        row(4, "2025-12-01", "2025-12-20 10:11"),
        row(5, "2025-11-28", "2025-12-19 08:30"),
        row(6, "2025-11-20", "2025-12-18 23:05"),
        row(7, "2025-11-02", "2025-12-17 06:45"),
    ];
    let expected = [
        "2026-01-01T02:00:06",
        "2026-01-01T01:48:26",
        "2025-12-31T21:09:06",
        "2025-12-20T10:11",
        "2025-12-19T08:30",
        "2025-12-18T23:05",
        "2025-12-17T06:45",
    ];
    let got = last_replies(&rows);
    let minutes: Vec<&str> = got
        .iter()
        .map(|time| time.get(..16).unwrap_or(time))
        .collect();
    let expected: Vec<&str> = expected.iter().map(|time| &time[..16]).collect();
    assert_eq!(minutes, expected);
}
