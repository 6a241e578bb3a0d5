//! Reading browse logs: TSV, JSON lines and the Apache/nginx combined log, line by line.
//!
//! Every line is read on its own, in whichever of the three forms it is written, so a file that
//! mixes them (or a log with a header line) is still read. A line that is none of them is counted
//! as malformed with its reason and the reading goes on: a forum owner's log is never clean, and
//! one torn line must not cost the rest of the month.

use std::collections::{HashMap, HashSet};
use std::fmt;

use serde::{Deserialize, Serialize};

/// At most this many malformed lines are kept with their reasons; the rest are only counted.
pub const MALFORMED_EXAMPLES_KEPT: usize = 10;

/// One browse record after reading: a user went from `referrer` to `target`. Both are the site's
/// own path and query; a referrer on another site (a search engine, a link elsewhere) or none at
/// all is `None`, an entry into the site.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
pub struct Transition {
    /// Path and query of the page browsed.
    pub target: String,
    /// Path and query of the page of the same site the user came from, if any.
    pub referrer: Option<String>,
    /// Index of the anonymous user in [`BrowseLog::users`] order of first appearance.
    pub user: u32,
}

/// Why a line could not be read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum MalformedReason {
    /// A line starting with `{` that is not a JSON object with a target and a user.
    BadJson,
    /// A tab-separated line with fewer than three fields or an empty target or user.
    BadTsv,
    /// A line that looked like a server log line but broke off or lacked a field.
    BadCombined,
    /// A target that is neither an absolute http(s) URL nor a path.
    BadTarget,
}

impl fmt::Display for MalformedReason {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str(match self {
            MalformedReason::BadJson => "not a JSON object with a target and a user",
            MalformedReason::BadTsv => "not three tab-separated fields (target, referrer, user)",
            MalformedReason::BadCombined => "not a combined log line",
            MalformedReason::BadTarget => "the target is neither an http(s) URL nor a path",
        })
    }
}

/// What reading the logs found besides the transitions.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LogReport {
    /// Lines read, blank lines included.
    pub lines: usize,
    /// Lines that gave a transition, before duplicates were removed.
    pub records: usize,
    /// Lines no form could read.
    pub malformed: usize,
    /// The first malformed lines: 1-based line number (counted over all logs) and reason.
    pub malformed_examples: Vec<(usize, MalformedReason)>,
    /// Server log lines that are no page view: another method than GET or HEAD, a failed or
    /// redirected answer, a style sheet, script, image or font.
    pub not_page_views: usize,
    /// Header lines of TSV files, blank lines and `#` comments.
    pub ignored: usize,
    /// Records dropped because the same user made the same transition before.
    pub duplicates: usize,
    /// Records dropped because their target is on another host than the site's.
    pub other_sites: usize,
    /// The site's host, when the logs name one (the host most absolute URLs in them name).
    pub site_host: Option<String>,
}

/// The deduplicated transitions of one site, in the order the logs hold them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct BrowseLog {
    /// Transitions, duplicates of the same user's same transition removed.
    pub transitions: Vec<Transition>,
    /// How many distinct users the logs show.
    pub users: usize,
    /// What the reading found.
    pub report: LogReport,
}

/// A URL as a log line wrote it: with its host, or a bare path.
#[derive(Debug, Clone, PartialEq, Eq)]
struct RawUrl {
    host: Option<String>,
    path_and_query: String,
}

/// A line read, before the site's host is known.
#[derive(Debug, Clone)]
struct RawRecord {
    target: RawUrl,
    /// `None` for no referrer; `Some(None)`-like cases (a referrer that is not a URL) are `None`
    /// too, as a browser sending `android-app://…` came from outside the site.
    referrer: Option<RawUrl>,
    user: String,
}

enum LineOutcome {
    Record(RawRecord),
    NotPageView,
    Ignored,
    Malformed(MalformedReason),
}

/// Reads browse logs line by line; [`LogReader::finish`] resolves the site's host and removes
/// duplicate transitions.
#[derive(Debug, Default)]
pub struct LogReader {
    records: Vec<RawRecord>,
    report: LogReport,
}

impl LogReader {
    /// An empty reader.
    pub fn new() -> Self {
        LogReader::default()
    }

    /// Reads every line of `text` (one log file, or a part of one cut at a line end).
    pub fn read_text(&mut self, text: &str) {
        for line in text.lines() {
            self.read_line(line);
        }
    }

    /// Reads one line.
    pub fn read_line(&mut self, line: &str) {
        self.report.lines += 1;
        match read_one_line(line.trim_end_matches('\r')) {
            LineOutcome::Record(record) => {
                self.report.records += 1;
                self.records.push(record);
            }
            LineOutcome::NotPageView => self.report.not_page_views += 1,
            LineOutcome::Ignored => self.report.ignored += 1,
            LineOutcome::Malformed(reason) => {
                self.report.malformed += 1;
                if self.report.malformed_examples.len() < MALFORMED_EXAMPLES_KEPT {
                    self.report
                        .malformed_examples
                        .push((self.report.lines, reason));
                }
            }
        }
    }

    /// The deduplicated transitions of the site the logs are about.
    ///
    /// The site's host is the host most absolute URLs in the records name (a server log writes
    /// bare paths as targets, but its referrers are absolute and mostly the site's own). A
    /// referrer on another host is an entry from outside. A record whose target is on another
    /// host (a log shared by several sites) is not about this site and is dropped, counted in
    /// [`LogReport::other_sites`].
    pub fn finish(self) -> BrowseLog {
        let LogReader {
            records,
            mut report,
        } = self;
        let site_host = most_common_host(&records);
        report.site_host = site_host.clone();
        let is_site = |url: &RawUrl| match (&url.host, &site_host) {
            (None, _) => true,
            (Some(host), Some(site)) => host == site,
            (Some(_), None) => true,
        };
        let mut users: HashMap<String, u32> = HashMap::new();
        let mut seen: HashSet<Transition> = HashSet::new();
        let mut transitions = Vec::new();
        for record in records {
            if !is_site(&record.target) {
                report.other_sites += 1;
                continue;
            }
            let next_user = users.len() as u32;
            let user = *users.entry(record.user).or_insert(next_user);
            let referrer = record
                .referrer
                .filter(is_site)
                .map(|url| url.path_and_query);
            let transition = Transition {
                target: record.target.path_and_query,
                referrer,
                user,
            };
            if seen.insert(transition.clone()) {
                transitions.push(transition);
            } else {
                report.duplicates += 1;
            }
        }
        BrowseLog {
            transitions,
            users: users.len(),
            report,
        }
    }
}

/// Reads logs given as whole texts (tests and small inputs).
pub fn read_logs<'a>(texts: impl IntoIterator<Item = &'a str>) -> BrowseLog {
    let mut reader = LogReader::new();
    for text in texts {
        reader.read_text(text);
    }
    reader.finish()
}

fn most_common_host(records: &[RawRecord]) -> Option<String> {
    let mut counts: HashMap<&str, usize> = HashMap::new();
    for record in records {
        for url in std::iter::once(&record.target).chain(record.referrer.as_ref()) {
            if let Some(host) = &url.host {
                *counts.entry(host.as_str()).or_default() += 1;
            }
        }
    }
    // Ties go to the alphabetically first host, so the answer never depends on hash order.
    counts
        .into_iter()
        .max_by(|a, b| a.1.cmp(&b.1).then_with(|| b.0.cmp(a.0)))
        .map(|(host, _)| host.to_string())
}

fn read_one_line(line: &str) -> LineOutcome {
    let trimmed = line.trim();
    if trimmed.is_empty() || trimmed.starts_with('#') {
        return LineOutcome::Ignored;
    }
    if trimmed.starts_with('{') {
        return read_json_line(trimmed);
    }
    if line.contains('\t') {
        return read_tsv_line(line);
    }
    read_combined_line(trimmed)
}

fn read_json_line(line: &str) -> LineOutcome {
    let Ok(serde_json::Value::Object(object)) = serde_json::from_str::<serde_json::Value>(line)
    else {
        return LineOutcome::Malformed(MalformedReason::BadJson);
    };
    let field = |names: &[&str]| {
        names
            .iter()
            .find_map(|name| object.get(*name).and_then(serde_json::Value::as_str))
            .map(str::to_string)
    };
    let (Some(target), Some(user)) = (
        field(&["target", "url"]),
        field(&["user", "guid", "user_id"]),
    ) else {
        return LineOutcome::Malformed(MalformedReason::BadJson);
    };
    let referrer = field(&["referrer", "referer"]);
    record_of(&target, referrer.as_deref(), user)
}

fn read_tsv_line(line: &str) -> LineOutcome {
    let fields: Vec<&str> = line.split('\t').map(str::trim).collect();
    if fields.len() < 3 || fields[0].is_empty() || fields[2].is_empty() {
        return LineOutcome::Malformed(MalformedReason::BadTsv);
    }
    if fields[0].eq_ignore_ascii_case("target") || fields[0].eq_ignore_ascii_case("url") {
        return LineOutcome::Ignored;
    }
    record_of(fields[0], Some(fields[1]), fields[2].to_string())
}

fn record_of(target: &str, referrer: Option<&str>, user: String) -> LineOutcome {
    let Some(target) = parse_url(target) else {
        return LineOutcome::Malformed(MalformedReason::BadTarget);
    };
    let referrer = referrer.and_then(parse_url);
    LineOutcome::Record(RawRecord {
        target,
        referrer,
        user,
    })
}

/// File endings of what a browser fetches for a page rather than as one.
const ASSET_ENDINGS: [&str; 14] = [
    ".css", ".js", ".png", ".jpg", ".jpeg", ".gif", ".ico", ".svg", ".webp", ".woff", ".woff2",
    ".ttf", ".map", ".txt",
];

/// `host ident authuser [time] "request" status bytes "referrer" "user agent"`; the user is the
/// client address and user agent, hashed, as the log has no other user id and the two together
/// tell apart most people behind one address.
fn read_combined_line(line: &str) -> LineOutcome {
    let malformed = LineOutcome::Malformed(MalformedReason::BadCombined);
    let mut rest = line;
    let Some(client) = take_token(&mut rest) else {
        return malformed;
    };
    if take_token(&mut rest).is_none() || take_token(&mut rest).is_none() {
        return malformed;
    }
    rest = rest.trim_start();
    let Some(after_open) = rest.strip_prefix('[') else {
        return malformed;
    };
    let Some(close) = after_open.find(']') else {
        return malformed;
    };
    rest = &after_open[close + 1..];
    let Some(request) = take_quoted(&mut rest) else {
        return malformed;
    };
    let (Some(status), Some(_bytes)) = (take_token(&mut rest), take_token(&mut rest)) else {
        return malformed;
    };
    let (Some(referrer), Some(agent)) = (take_quoted(&mut rest), take_quoted(&mut rest)) else {
        return malformed;
    };
    let Ok(status) = status.parse::<u16>() else {
        return malformed;
    };
    let mut parts = request.split_whitespace();
    let (Some(method), Some(target)) = (parts.next(), parts.next()) else {
        return malformed;
    };
    let path = target.split(['?', '#']).next().unwrap_or("");
    let is_asset = ASSET_ENDINGS
        .iter()
        .any(|ending| path.to_ascii_lowercase().ends_with(ending));
    let is_view = (200..300).contains(&status) || status == 304;
    if !matches!(method, "GET" | "HEAD") || !is_view || is_asset {
        return LineOutcome::NotPageView;
    }
    let user = format!("{:016x}", fnv1a(&format!("{client}\t{agent}")));
    record_of(target, Some(&referrer), user)
}

fn take_token<'a>(rest: &mut &'a str) -> Option<&'a str> {
    let trimmed = rest.trim_start();
    if trimmed.is_empty() {
        return None;
    }
    let end = trimmed.find(' ').unwrap_or(trimmed.len());
    let token = &trimmed[..end];
    *rest = &trimmed[end..];
    Some(token)
}

/// A double-quoted field; Apache escapes quotes inside as `\"`, nginx as `\x22`.
fn take_quoted(rest: &mut &str) -> Option<String> {
    let trimmed = rest.trim_start();
    let body = trimmed.strip_prefix('"')?;
    let mut value = String::new();
    let mut characters = body.char_indices();
    while let Some((index, character)) = characters.next() {
        match character {
            '"' => {
                *rest = &body[index + 1..];
                return Some(value.replace("\\x22", "\""));
            }
            '\\' => {
                let (_, escaped) = characters.next()?;
                if escaped != '"' && escaped != '\\' {
                    value.push('\\');
                }
                value.push(escaped);
            }
            other => value.push(other),
        }
    }
    None
}

/// 64-bit FNV-1a: a stable hash (the standard library's may change between releases), so one
/// log gives the same user ids on every machine.
pub(crate) fn fnv1a(text: &str) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in text.bytes() {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    hash
}

/// An absolute http(s) URL or a path, fragment dropped; anything else (`-`, empty, another
/// scheme) is no URL.
fn parse_url(text: &str) -> Option<RawUrl> {
    let text = text.trim();
    let without_fragment = text.split('#').next().unwrap_or("");
    if without_fragment.starts_with('/') {
        return Some(RawUrl {
            host: None,
            path_and_query: without_fragment.to_string(),
        });
    }
    let lower = without_fragment.get(..8)?.to_ascii_lowercase();
    let after_scheme = if lower.starts_with("http://") {
        &without_fragment[7..]
    } else if lower.starts_with("https://") {
        &without_fragment[8..]
    } else {
        return None;
    };
    let host_end = after_scheme.find(['/', '?']).unwrap_or(after_scheme.len());
    let host = after_scheme[..host_end].to_ascii_lowercase();
    if host.is_empty() {
        return None;
    }
    let rest = &after_scheme[host_end..];
    let path_and_query = if rest.starts_with('/') {
        rest.to_string()
    } else {
        format!("/{rest}")
    };
    Some(RawUrl {
        host: Some(host),
        path_and_query,
    })
}
