//! Discuz! X-like: the engine behind most Chinese forums, served in GBK with the charset named only
//! in a `<meta>` tag.
//!
//! URLs mix the engine's two spellings. Canonical pages use the static rewrites (`/forum-3-2.html`,
//! `/thread-123-2-1.html`, `/space-uid-5.html`, `/archiver/tid-123.html`); everything else goes
//! through the dynamic scripts (`/forum.php?mod=viewthread&tid=123&page=1`,
//! `/forum.php?mod=redirect&goto=findpost&ptid=123&pid=456`, `/home.php?mod=space&do=list`). The
//! dynamic form of a board or thread page is a second spelling of it: with `page=1` it is the
//! explicit first page, without a page or with a later page it is an alias. Sorted board lists
//! exist only in the dynamic form (`&orderby=subject|author|replies|dateline`). Sessions travel as
//! `sid=`, after `?` on rewrites and `&` on scripts.
//!
//! Layout: the X3 templates. The thread list is `<table id="threadlisttableid">` with one
//! `<tbody id="normalthread_N">` per thread (`stickthread_N` when pinned); a post is
//! `<table id="pidN" class="plhin">` with its text alone in `<td class="t_f" id="postmessage_N">`,
//! its floor label (楼主, 沙发, 板凳, 地板, then `N#`) linking the permalink, and the signature
//! in a separate row below.
//!
//! Dates: absolute dates are `YYYY-M-D HH:MM` (month and day unpadded); thread lists give the start
//! date as `YYYY-M-D`. Like the engine's `dgmdate(.., 'u')`, instants of the last week are written
//! relatively inside `<span title="YYYY-M-D HH:MM:SS">`, the title holding the absolute time:
//! `刚刚` (this second), `N&nbsp;秒前`, `N&nbsp;分钟前`, `N&nbsp;小时前` (all today),
//! `昨天&nbsp;HH:MM`, `前天&nbsp;HH:MM`, then `N&nbsp;天前` up to six days back. Older instants are
//! written absolutely, without a span.

use super::common::{plain_number, without_quirks};
use super::{
    AdjacentThreads, Charset, Family, FamilyProfile, LoginWall, PermalinkStyle, RenderContext,
};
use crate::history::ForumHistory;
use crate::html::{
    parse_query, percent_encode, query_value, session_hex, session_token, split_path_and_query,
};
use crate::route::{ActionKind, Address, Route, SortOrder, Variant};
use crate::text::Language;
use crate::views::*;

mod templates;
#[cfg(test)]
mod tests;

#[derive(Debug)]
pub(crate) struct Discuz {
    profile: FamilyProfile,
}

impl Discuz {
    pub(crate) fn new() -> Self {
        Discuz {
            profile: FamilyProfile {
                name: "discuz",
                description: "Discuz! X-like: thread-123-1-1.html rewrites, GBK, relative dates",
                language: Language::SimplifiedChinese,
                charset: Charset::Gbk,
                charset_in_header: false,
                utc_offset_seconds: 8 * 3_600,
                threads_per_page: 30,
                posts_per_page: 10,
                members_per_page: 20,
                login_wall: LoginWall::PromptWithOk,
                profiles_need_login: false,
                permalink: PermalinkStyle::RedirectsToThreadPage,
                session_parameter: Some("sid"),
                session_cookie: "discuz_sid",
                adjacent_threads: AdjacentThreads::DirectLinks,
                missing_status: 200,
                aliases_redirect: false,
                quirks: super::Quirks::NONE,
            },
        }
    }
}

/// Each order's `orderby` value and its label in the list's sort bar.
const ORDERS: [(SortOrder, &str, &str); 5] = [
    (SortOrder::LastPost, "lastpost", "最后发表"),
    (SortOrder::Title, "subject", "标题"),
    (SortOrder::Author, "author", "作者"),
    (SortOrder::Replies, "replies", "回复"),
    (SortOrder::Created, "dateline", "发帖时间"),
];

/// The `orderby` value and the label of `sort`.
fn order(sort: SortOrder) -> (&'static str, &'static str) {
    let entry = ORDERS
        .iter()
        .find(|entry| entry.0 == sort)
        .unwrap_or(&ORDERS[0]);
    (entry.1, entry.2)
}

/// The `page` parameter of a script URL, and whether it spells page 1 explicitly.
fn dynamic_page(pairs: &[(String, String)]) -> Option<(u32, bool)> {
    let Some(text) = query_value(pairs, "page") else {
        return Some((1, false));
    };
    let page = plain_number(text).filter(|&page| page >= 1)?;
    Some((page, page == 1))
}

/// The numbers of a rewrite such as `thread-1-2-1.html`: `prefix`, `N` numbers joined by `-`,
/// then `.html`.
fn rewrite_numbers<const N: usize>(path: &str, prefix: &str) -> Option<[u32; N]> {
    let mut parts = path.strip_prefix(prefix)?.strip_suffix(".html")?.split('-');
    let mut numbers = [0u32; N];
    for slot in &mut numbers {
        *slot = plain_number(parts.next()?)?;
    }
    parts.next().is_none().then_some(numbers)
}

/// `&page=N` for a script URL; empty for an implicit first page.
fn page_parameter(page: u32, explicit_first_page: bool) -> String {
    let shown = page > 1 || explicit_first_page;
    if shown {
        format!("&page={page}")
    } else {
        String::new()
    }
}

impl Family for Discuz {
    fn profile(&self) -> &FamilyProfile {
        &self.profile
    }

    fn encode(&self, address: &Address, history: &ForumHistory) -> String {
        let variant = &address.variant;
        let explicit = variant.explicit_first_page;
        // Only the canonical spelling of a list page has a static rewrite.
        let rewritten = !explicit && !variant.alias;
        let mut url = match &address.route {
            // Quirks this engine lacks are spelled as the plain route they stand for.
            Route::BoardAfter { .. } | Route::HiddenThread { .. } | Route::AllThreads { .. } => {
                return self.encode(&without_quirks(address), history);
            }
            Route::Portal => "/forum.php".to_string(),
            Route::Board { board, page } if rewritten && variant.sort == SortOrder::LastPost => {
                format!("/forum-{board}-{page}.html")
            }
            Route::Board { board, page } => {
                let mut url = format!("/forum.php?mod=forumdisplay&fid={board}");
                if variant.sort != SortOrder::LastPost {
                    url = url + "&orderby=" + order(variant.sort).0;
                }
                url + &page_parameter(*page, explicit)
            }
            Route::Thread { thread, page } if rewritten => {
                format!("/thread-{thread}-{page}-1.html")
            }
            Route::Thread { thread, page } => {
                format!("/forum.php?mod=viewthread&tid={thread}") + &page_parameter(*page, explicit)
            }
            Route::Post { post } => match history.post(*post) {
                Some(record) => {
                    let thread = record.thread;
                    format!("/forum.php?mod=redirect&goto=findpost&ptid={thread}&pid={post}")
                }
                None => format!("/forum.php?mod=redirect&goto=findpost&pid={post}"),
            },
            Route::Print { thread } => {
                format!("/forum.php?mod=viewthread&action=printable&tid={thread}")
            }
            Route::ArchiveBoard { board } => format!("/archiver/fid-{board}.html"),
            Route::ArchiveThread { thread } => format!("/archiver/tid-{thread}.html"),
            Route::AdjacentThread { thread, newer } => {
                let direction = if *newer { "nextnewset" } else { "nextoldset" };
                format!("/forum.php?mod=redirect&goto={direction}&tid={thread}")
            }
            Route::Profile { user } => format!("/space-uid-{user}.html"),
            Route::MemberList { page } => {
                "/home.php?mod=space&do=list".to_string() + &page_parameter(*page, explicit)
            }
            Route::Calendar { year, month } => {
                format!("/plugin.php?id=calendar&ym={year:04}{month:02}")
            }
            Route::Search { page } => {
                "/search.php?mod=forum&srchtype=new".to_string() + &page_parameter(*page, explicit)
            }
            Route::Login { next } => {
                let mut url = "/member.php?mod=logging&action=login".to_string();
                // The engine urlencodes the whole return address, slashes included.
                if let Some(next) = next {
                    url = url + "&referer=" + &percent_encode(next).replace('/', "%2F");
                }
                url
            }
            Route::Action { kind, target } => match kind {
                ActionKind::Reply => format!("/forum.php?mod=post&action=reply&tid={target}"),
                ActionKind::NewThread => {
                    format!("/forum.php?mod=post&action=newthread&fid={target}")
                }
                ActionKind::Quote => format!("/forum.php?mod=post&action=reply&repquote={target}"),
                ActionKind::Message => format!("/home.php?mod=spacecp&ac=pm&touid={target}"),
            },
        };
        if let Some(session) = variant.session {
            url.push(if url.contains('?') { '&' } else { '?' });
            url = url + "sid=" + &session_hex(session);
        }
        url
    }

    fn decode(&self, path_and_query: &str, history: &ForumHistory) -> Option<Address> {
        let (path, query) = split_path_and_query(path_and_query);
        let pairs = parse_query(query);
        let value = |key: &str| query_value(&pairs, key);
        let number = |key: &str| value(key).and_then(plain_number);
        let session = value("sid").map(session_token);
        let mut variant = Variant {
            session,
            ..Variant::default()
        };
        let route = match (path, value("mod")) {
            ("/forum.php", None) => Route::Portal,
            ("/forum.php", Some("forumdisplay")) => {
                let board = number("fid")?;
                if let Some(key) = value("orderby") {
                    variant.sort = ORDERS.iter().find(|entry| entry.1 == key)?.0;
                }
                let (page, explicit) = dynamic_page(&pairs)?;
                variant.explicit_first_page = explicit;
                // The default order has a static spelling, so its script form is an alias.
                variant.alias = variant.sort == SortOrder::LastPost && !explicit;
                Route::Board { board, page }
            }
            ("/forum.php", Some("viewthread")) => {
                let thread = number("tid")?;
                match value("action") {
                    Some("printable") => Route::Print { thread },
                    Some(_) => return None,
                    None => {
                        let (page, explicit) = dynamic_page(&pairs)?;
                        (variant.explicit_first_page, variant.alias) = (explicit, !explicit);
                        Route::Thread { thread, page }
                    }
                }
            }
            ("/forum.php", Some("redirect")) => match value("goto")? {
                "findpost" => {
                    let post = number("pid")?;
                    let owner = history.post(post).map(|record| record.thread);
                    // A `ptid` naming another thread than the post's is a broken link.
                    match value("ptid").map(plain_number) {
                        Some(None) => return None,
                        Some(ptid) if owner.is_some() && ptid != owner => return None,
                        _ => Route::Post { post },
                    }
                }
                goto @ ("nextnewset" | "nextoldset") => {
                    let (thread, newer) = (number("tid")?, goto == "nextnewset");
                    Route::AdjacentThread { thread, newer }
                }
                _ => return None,
            },
            ("/forum.php", Some("post")) => {
                let (kind, target) = match (value("action")?, number("repquote")) {
                    ("reply", Some(post)) => (ActionKind::Quote, post),
                    ("reply", None) => (ActionKind::Reply, number("tid")?),
                    ("newthread", _) => (ActionKind::NewThread, number("fid")?),
                    _ => return None,
                };
                Route::Action { kind, target }
            }
            ("/home.php", Some("space")) if value("do") == Some("list") => {
                let (page, explicit) = dynamic_page(&pairs)?;
                variant.explicit_first_page = explicit;
                Route::MemberList { page }
            }
            ("/home.php", Some("space")) if value("do").is_none() => {
                let user = number("uid")?;
                Route::Profile { user }
            }
            ("/home.php", Some("spacecp")) if value("ac") == Some("pm") => {
                let (kind, target) = (ActionKind::Message, number("touid")?);
                Route::Action { kind, target }
            }
            ("/member.php", Some("logging")) if value("action") == Some("login") => {
                let next = value("referer").map(str::to_string);
                Route::Login { next }
            }
            ("/search.php", Some("forum")) if value("srchtype") == Some("new") => {
                let (page, explicit) = dynamic_page(&pairs)?;
                variant.explicit_first_page = explicit;
                Route::Search { page }
            }
            ("/plugin.php", _) if value("id") == Some("calendar") => {
                let text = value("ym").filter(|text| text.len() >= 6)?;
                let (year, month) = text.split_at(text.len() - 2);
                let (year, month): (i32, u32) = (year.parse().ok()?, month.parse().ok()?);
                // Only the engine's own spelling (four-digit year, two-digit month) is accepted.
                let canonical = format!("{year:04}{month:02}") == text;
                canonical.then_some(Route::Calendar { year, month })?
            }
            _ => {
                if let Some([board, page]) = rewrite_numbers(path, "/forum-") {
                    (page >= 1).then_some(Route::Board { board, page })?
                } else if let Some([thread, page, extra]) = rewrite_numbers(path, "/thread-") {
                    // The last number is the board page the reader came from. Links always say 1;
                    // any other value spells the same thread page again.
                    variant.alias = extra != 1;
                    (page >= 1).then_some(Route::Thread { thread, page })?
                } else if let Some([user]) = rewrite_numbers(path, "/space-uid-") {
                    Route::Profile { user }
                } else if let Some([board]) = rewrite_numbers(path, "/archiver/fid-") {
                    Route::ArchiveBoard { board }
                } else if let Some([thread]) = rewrite_numbers(path, "/archiver/tid-") {
                    Route::ArchiveThread { thread }
                } else {
                    return None;
                }
            }
        };
        Some(Address { route, variant })
    }

    fn render(&self, page: &Page, context: &RenderContext<'_>) -> String {
        templates::render(page, context)
    }
}
