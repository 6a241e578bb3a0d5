//! Post extraction on simulated forums, checked against the simulator's ground truth.

use std::collections::HashMap;

use crate::error::Result;
use trawl_page::analysis::analyse;
use trawl_page::time::DateContext;

use crate::wf52::f1_of;
use trawl_sim::{Address, FamilyName, Route, Scale, Site, SiteConfig, SortOrder};

/// Figures for one family.
#[derive(Debug, Default, Clone, Copy)]
pub struct FamilyScore {
    pub pages: usize,
    pub truth_posts: usize,
    pub extracted: usize,
    pub text_right: usize,
    pub time_right: usize,
    pub author_right: usize,
}

impl FamilyScore {
    pub fn f1(&self) -> f64 {
        f1_of(self.text_right, self.extracted, self.truth_posts)
    }
    pub fn time(&self) -> f64 {
        self.time_right as f64 / self.truth_posts.max(1) as f64
    }
    pub fn author(&self) -> f64 {
        self.author_right as f64 / self.truth_posts.max(1) as f64
    }
}

/// The simulator's answer to `path` at `at`, as a visitor without a cookie gets it, analysed
/// alone as `trawl extract` analyses a saved page.
fn analyse_served(
    site: &Site,
    path: &str,
    at: i64,
    context: &DateContext,
) -> Result<trawl_page::analysis::PageAnalysis> {
    let answer = site.serve(path, at, None);
    let content_type = answer.header("Content-Type");
    let url = url::Url::parse(&format!("http://forum.test{path}"))?;
    Ok(analyse(&answer.body, content_type, &url, context))
}

/// Text with runs of white space made one space, as the truth is compared.
pub fn normalise(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// A time read from a page as the forum's clock shows it (`2025-11-17T01:04:52`), which is how
/// the ground truth states times. A time the page gave with its own offset (an ISO 8601 `Z` in
/// a `title`, as engines that localise times in the browser print them) names an instant, and
/// is compared as that instant; a time without one is the forum's wall clock already.
fn on_forum_clock(time: &trawl_page::time::ParsedTime, forum_offset_seconds: i32) -> String {
    if time.explicit_offset_seconds.is_none() {
        return time.local.to_string();
    }
    let offset =
        jiff::tz::Offset::from_seconds(forum_offset_seconds).unwrap_or(jiff::tz::Offset::UTC);
    time.instant(forum_offset_seconds)
        .to_zoned(jiff::tz::TimeZone::fixed(offset))
        .datetime()
        .to_string()
}

/// Extracts the posts of up to `pages` thread pages of a small forum of `family` and compares
/// them, in order, with the ground truth (text exactly, time to the minute as the forum's clock
/// shows it, author name). Every post or field that does not match is described to `miss`, one
/// line each, for diagnosing.
pub fn score_family(
    family: FamilyName,
    seed: u64,
    pages: usize,
    miss: &mut dyn FnMut(String),
) -> Result<FamilyScore> {
    let site = Site::build(SiteConfig::new(family, seed, Scale::Small));
    let at = site.history().end;
    let offset = site.family().profile().utc_offset_seconds;
    let mut truth_by_page: HashMap<String, Vec<trawl_sim::truth::PostTruth>> = HashMap::new();
    site.for_each_post_truth(at, |post| {
        truth_by_page
            .entry(post.page.clone())
            .or_default()
            .push(post)
    });
    let mut urls: Vec<String> = Vec::new();
    site.for_each_address(at, |address| {
        if matches!(address.route, Route::Thread { .. }) && address.variant.is_canonical() {
            urls.push(site.url_of(&address));
        }
    });
    let step = (urls.len() / pages.max(1)).max(1);
    let mut score = FamilyScore::default();
    let fetched_at = jiff::Timestamp::from_second(at)?;
    let context = DateContext::new(fetched_at, Some(offset));
    // Every post's text, for telling a post a page shows again from another page.
    let texts_of_posts: HashMap<String, String> = truth_by_page
        .values()
        .flatten()
        .map(|post| (normalise(&post.text), post.page.clone()))
        .collect();
    for path in urls.iter().step_by(step).take(pages) {
        let mut analysis = analyse_served(&site, path, at, &context)?;
        let truth = truth_by_page.get(path).cloned().unwrap_or_default();
        // A post shown again atop a later page (a question-and-answer site's question, a last
        // post repeated) is the page's content, but the truth counts it on its own page.
        while analysis.posts.len() > truth.len()
            && let Some(first) = analysis.posts.first()
            && texts_of_posts
                .get(&normalise(&first.text))
                .is_some_and(|page| page != path)
        {
            analysis.posts.remove(0);
        }
        score.pages += 1;
        score.truth_posts += truth.len();
        score.extracted += analysis.posts.len();
        if analysis.posts.len() != truth.len() {
            miss(format!(
                "{} {path}: {} posts extracted, {} in the truth",
                family.name(),
                analysis.posts.len(),
                truth.len()
            ));
        }
        for (index, (post, want)) in analysis.posts.iter().zip(&truth).enumerate() {
            if normalise(&post.text) != normalise(&want.text) {
                miss(format!(
                    "{} {path} post {index}: text {:?}, truth {:?}",
                    family.name(),
                    shortened(&normalise(&post.text)),
                    shortened(&normalise(&want.text))
                ));
                continue;
            }
            score.text_right += 1;
            let shown = post.time.map(|time| on_forum_clock(&time, offset));
            let wanted = want.created.get(..16).map(str::to_string);
            if shown.as_deref().and_then(|s| s.get(..16)) == wanted.as_deref() {
                score.time_right += 1;
            } else {
                miss(format!(
                    "{} {path} post {index}: time {shown:?}, truth {:?}",
                    family.name(),
                    want.created
                ));
            }
            if post.author.as_deref() == Some(want.author.as_str()) {
                score.author_right += 1;
            } else {
                miss(format!(
                    "{} {path} post {index}: author {:?}, truth {:?}",
                    family.name(),
                    post.author,
                    want.author
                ));
            }
        }
    }
    Ok(score)
}

/// Thread-entry figures for one family.
#[derive(Debug, Default, Clone, Copy)]
pub struct EntryScore {
    pub pages: usize,
    pub expected: usize,
    pub extracted: usize,
    pub right: usize,
    pub replies_right: usize,
    pub time_right: usize,
}

impl EntryScore {
    pub fn f1(&self) -> f64 {
        f1_of(self.right, self.extracted, self.expected)
    }
}

/// At most 60 characters of `text`, for a miss line that stays one line.
fn shortened(text: &str) -> String {
    match text.char_indices().nth(60) {
        Some((end, _)) => format!("{}...", &text[..end]),
        None => text.to_string(),
    }
}

/// Extracts the thread entries of every board list page of a small forum of `family` and checks
/// each against the history: the link must name a thread, the title must be that thread's, the
/// reply count and last-reply minute must be those at the instant. Every entry that is not right
/// is described to `miss`, as is a page whose count of entries differs from the expected one.
pub fn score_entries(
    family: FamilyName,
    seed: u64,
    miss: &mut dyn FnMut(String),
) -> Result<EntryScore> {
    let site = Site::build(SiteConfig::new(family, seed, Scale::Small));
    let history = site.history();
    let at = history.end;
    let offset = site.family().profile().utc_offset_seconds;
    let per_page = site.family().profile().threads_per_page as usize;
    let context = DateContext::new(jiff::Timestamp::from_second(at)?, Some(offset));
    let mut score = EntryScore::default();
    for board in 1..=history.board_count() {
        let Some(record) = history.board(board) else {
            continue;
        };
        let existing: Vec<u32> = record
            .threads
            .iter()
            .copied()
            .filter(|&t| history.thread(t).is_some_and(|thread| thread.created <= at))
            .collect();
        let stickies = existing
            .iter()
            .filter(|&&t| history.thread(t).is_some_and(|x| x.sticky))
            .count();
        let normal = existing.len() - stickies;
        let pages = normal.div_ceil(per_page).max(1);
        for page in 1..=pages {
            // Cursor-paged families name later pages by the thread they follow.
            let route = site.board_page_route(board, page as u32, SortOrder::LastPost, at);
            let path = site.url_of(&Address::canonical(route));
            let analysis = analyse_served(&site, &path, at, &context)?;
            score.pages += 1;
            let page_expected = normal.saturating_sub((page - 1) * per_page).min(per_page)
                + if page == 1 { stickies } else { 0 };
            score.expected += page_expected;
            score.extracted += analysis.thread_entries.len();
            if analysis.thread_entries.len() != page_expected {
                miss(format!(
                    "{} {path}: {} entries extracted, {page_expected} expected",
                    family.name(),
                    analysis.thread_entries.len()
                ));
            }
            let (mut right, mut replies_right, mut time_right) = (0, 0, 0);
            for entry in &analysis.thread_entries {
                let thread = entry
                    .url
                    .strip_prefix("http://forum.test")
                    .and_then(|rest| site.thread_of_first_page(rest));
                let Some(thread) = thread else {
                    miss(format!(
                        "{} {path}: entry {:?} links to {}, not a thread's first page",
                        family.name(),
                        entry.title,
                        entry.url
                    ));
                    continue;
                };
                if entry.title != site.thread_title(thread) {
                    miss(format!(
                        "{} {path}: entry {:?}, thread {thread} is titled {:?}",
                        family.name(),
                        entry.title,
                        site.thread_title(thread)
                    ));
                    continue;
                }
                right += 1;
                let posts = history.thread_posts_at(thread, at);
                if entry.replies == Some(posts.len() as u64 - 1) {
                    replies_right += 1;
                } else {
                    miss(format!(
                        "{} {path}: entry {:?} replies {:?}, truth {}",
                        family.name(),
                        entry.title,
                        entry.replies,
                        posts.len() - 1
                    ));
                }
                let last = posts
                    .last()
                    .and_then(|&p| history.post(p))
                    .map(|p| p.created)
                    .unwrap_or(0);
                let want = trawl_sim::dates::iso8601(last, offset);
                let got = entry.last_reply.map(|time| on_forum_clock(&time, offset));
                if got.as_deref().and_then(|g| g.get(..16)) == want.get(..16) {
                    time_right += 1;
                } else {
                    miss(format!(
                        "{} {path}: entry {:?} last reply {got:?}, truth {want}",
                        family.name(),
                        entry.title
                    ));
                }
            }
            // A board's last page may hold a single thread, which no repetition reveals; entries
            // read from elsewhere on such a page (a "latest threads" box) count for nothing.
            score.right += right.min(page_expected);
            score.replies_right += replies_right.min(page_expected);
            score.time_right += time_right.min(page_expected);
        }
    }
    Ok(score)
}

/// Posts found where a forum shows none, for one family.
#[derive(Debug, Default, Clone, Copy)]
pub struct OtherPagesScore {
    /// Pages read.
    pub pages: usize,
    /// Pages on which posts were extracted.
    pub pages_with_posts: usize,
    /// Posts extracted on them in all.
    pub posts: usize,
}

/// The kinds of page that hold no post: the portal, board pages (and their archive view),
/// profiles, member lists, calendars, search listings, the login form and login walls.
fn shows_no_post(route: &Route) -> Option<&'static str> {
    Some(match route {
        Route::Portal => "portal",
        Route::Board { .. } | Route::BoardAfter { .. } | Route::AllThreads { .. } => "board",
        Route::ArchiveBoard { .. } => "archive-board",
        Route::Profile { .. } => "profile",
        Route::MemberList { .. } => "member-list",
        Route::Calendar { .. } => "calendar",
        Route::Search { .. } => "search",
        Route::Login { .. } => "login",
        Route::Action { .. } | Route::HiddenThread { .. } => "action",
        Route::Thread { .. }
        | Route::Post { .. }
        | Route::Print { .. }
        | Route::ArchiveThread { .. }
        | Route::AdjacentThread { .. } => return None,
    })
}

/// Reads up to `per_kind` canonical pages of every kind that holds no post (see
/// [`shows_no_post`]) on a small forum of `family` and counts the posts extracted from them,
/// which are all wrong: a header, sidebar or profile taken for a post. Each such page is
/// described to `miss`.
pub fn score_other_pages(
    family: FamilyName,
    seed: u64,
    per_kind: usize,
    miss: &mut dyn FnMut(String),
) -> Result<OtherPagesScore> {
    let site = Site::build(SiteConfig::new(family, seed, Scale::Small));
    let at = site.history().end;
    let offset = site.family().profile().utc_offset_seconds;
    let context = DateContext::new(jiff::Timestamp::from_second(at)?, Some(offset));
    let mut by_kind: Vec<(&'static str, Vec<String>)> = Vec::new();
    site.for_each_address(at, |address| {
        let Some(kind) = shows_no_post(&address.route) else {
            return;
        };
        if !address.variant.is_canonical() {
            return;
        }
        let url = site.url_of(&address);
        match by_kind.iter_mut().find(|(known, _)| *known == kind) {
            Some((_, urls)) => urls.push(url),
            None => by_kind.push((kind, vec![url])),
        }
    });
    let mut score = OtherPagesScore::default();
    for (_, urls) in &by_kind {
        let step = (urls.len() / per_kind.max(1)).max(1);
        for path in urls.iter().step_by(step).take(per_kind) {
            let analysis = analyse_served(&site, path, at, &context)?;
            score.pages += 1;
            if !analysis.posts.is_empty() {
                score.pages_with_posts += 1;
                score.posts += analysis.posts.len();
                miss(format!(
                    "{} {path}: {} posts extracted on a page that holds none, first {:?}",
                    family.name(),
                    analysis.posts.len(),
                    shortened(&normalise(&analysis.posts[0].text))
                ));
            }
        }
    }
    Ok(score)
}

#[cfg(test)]
mod tests {
    use super::*;
    use trawl_page::time::parse_time;

    /// Reads `text` on a forum `offset` seconds east of UTC and checks how it is shown on the
    /// forum's clock.
    #[track_caller]
    fn check(text: &str, offset: i32, expected: &str) {
        let context = DateContext::new(
            jiff::Timestamp::from_second(1_767_225_600).unwrap(),
            Some(offset),
        );
        let time = parse_time(text, &context).unwrap_or_else(|| panic!("{text:?} is a time"));
        assert_eq!(on_forum_clock(&time, offset), expected, "{text}");
    }

    #[test]
    fn times_with_an_offset_are_compared_as_instants() {
        check("2025-11-17T00:04:52.000Z", 3600, "2025-11-17T01:04:52");
        check("2025-11-17T00:04:52.000Z", -5 * 3600, "2025-11-16T19:04:52");
        check("2025-11-17T01:04:52+01:00", 3600, "2025-11-17T01:04:52");
        check("Nov 17, 2025 1:04 am", 3600, "2025-11-17T01:04:00");
        check("Nov 17, 2025 1:04 am", -5 * 3600, "2025-11-17T01:04:00");
    }
}
