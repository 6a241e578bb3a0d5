//! A hand-made forum of the late 1990s: Traditional Chinese in Big5 (named only in a `<meta>`
//! tag), opaque hexadecimal ids, and nothing but nested tables.
//!
//! URLs: every board, thread, post and user id is printed as 8 lower-case hex digits produced by
//! a reversible 32-bit scramble with keys of its own per kind of id (multiply by an odd constant,
//! xor, rotate), so neighbouring ids look unrelated and a thread id cannot be guessed from a post
//! id. Boards are `/b/{id}/` with pages `/b/{id}/2.html` (page 1 spelled explicitly as
//! `/b/{id}/1.html`) and sorted lists `?sort=title`; threads are `/t/{id}.html` and
//! `/t/{id}-2.html` (explicitly `/t/{id}-1.html`); post permalinks `/p/{id}` show the post alone;
//! `/t/{id}.html?print=1` prints a thread. The old archive from before the ids were scrambled
//! survives with plain numbers: `/old/b3.htm`, `/old/t123.htm`. Guests asking for actions are
//! redirected to `/login.html?back=…`; missing pages answer 200 with "找不到此頁面".
//!
//! Layout: `<table width="100%" border="0" cellpadding="4" cellspacing="1" bgcolor="#cccccc">`
//! everywhere, rows coloured with `bgcolor`, text in `<font size="2">`, and no classes or ids: a
//! crawler must rely on structure. A post is two rows of the thread table: a header row
//! "作者：name　發表時間：2025/03/30 22:11", then a row with the author's cell (註冊日期, 文章數)
//! and the text cell, whose first `<font>` holds the paragraphs separated by `<br>`; a signature
//! follows in a second `<font>`.
//!
//! Dates: absolute everywhere, `YYYY/MM/DD HH:MM` in the forum's local time (UTC+8).

use std::fmt::Write;

use super::common::{plain_number, without_quirks};
use super::{
    AdjacentThreads, Charset, Family, FamilyProfile, LoginWall, PermalinkStyle, RenderContext,
};
use crate::history::ForumHistory;
use crate::html::{parse_query, percent_encode, query_value, split_path_and_query};
use crate::route::{ActionKind, Address, Route, SortOrder, Variant};
use crate::text::Language;
use crate::views::*;

mod templates;
#[cfg(test)]
mod tests;

#[derive(Debug)]
pub(crate) struct Tablecraft {
    profile: FamilyProfile,
}

impl Tablecraft {
    pub(crate) fn new() -> Self {
        Tablecraft {
            profile: FamilyProfile {
                name: "tablecraft",
                description: "Hand-made table layout: opaque hex ids, Big5, absolute dates",
                language: Language::TraditionalChinese,
                charset: Charset::Big5,
                charset_in_header: false,
                utc_offset_seconds: 8 * 3_600,
                threads_per_page: 40,
                posts_per_page: 25,
                members_per_page: 40,
                login_wall: LoginWall::RedirectToLogin,
                profiles_need_login: false,
                permalink: PermalinkStyle::SinglePost,
                session_parameter: None,
                session_cookie: "ASPSESSIONID",
                adjacent_threads: AdjacentThreads::DirectLinks,
                missing_status: 200,
                aliases_redirect: false,
                quirks: super::Quirks::NONE,
            },
        }
    }
}

/// What an opaque id names. Each kind scrambles with keys of its own.
#[derive(Debug, Clone, Copy)]
enum Kind {
    Board,
    Thread,
    Post,
    User,
}

impl Kind {
    /// The scramble keys: an odd multiplier, an xor mask and a rotation.
    fn keys(self) -> (u32, u32, u32) {
        match self {
            Kind::Board => (0x2C1B_3C6D, 0x5BD1_E995, 7),
            Kind::Thread => (0x9E37_79B1, 0x27D4_EB2F, 13),
            Kind::Post => (0x85EB_CA6B, 0xC2B2_AE35, 19),
            Kind::User => (0x1656_67B1, 0x3C6E_F372, 11),
        }
    }

    /// `id` as the 8 lower-case hex digits URLs show.
    fn hide(self, id: u32) -> String {
        let (multiplier, mask, rotation) = self.keys();
        format!(
            "{:08x}",
            (id.wrapping_mul(multiplier) ^ mask).rotate_left(rotation)
        )
    }

    /// The id behind 8 lower-case hex digits; `None` for any other text and for 0, which the
    /// encoder never produces.
    fn reveal(self, text: &str) -> Option<u32> {
        let hex = |byte: u8| matches!(byte, b'0'..=b'9' | b'a'..=b'f');
        if text.len() != 8 || !text.bytes().all(hex) {
            return None;
        }
        let (multiplier, mask, rotation) = self.keys();
        let scrambled = u32::from_str_radix(text, 16).ok()?;
        let id = (scrambled.rotate_right(rotation) ^ mask).wrapping_mul(inverse(multiplier));
        (id > 0).then_some(id)
    }
}

/// The inverse of an odd number modulo 2^32. An odd number is its own inverse modulo 8, and each
/// Newton step doubles the number of correct low bits: 3, 6, 12, 24, 48.
fn inverse(odd: u32) -> u32 {
    let mut inverse = odd;
    for _ in 0..4 {
        inverse = inverse.wrapping_mul(2u32.wrapping_sub(odd.wrapping_mul(inverse)));
    }
    inverse
}

/// A page number of a list (1 or more), as a URL writes it.
fn page_number(text: &str) -> Option<u32> {
    plain_number(text).filter(|&page| page >= 1)
}

/// The member-only actions: the folder each one lives in and the kind of id it acts on.
const ACTIONS: [(ActionKind, &str, Kind); 4] = [
    (ActionKind::Reply, "reply", Kind::Thread),
    (ActionKind::NewThread, "post", Kind::Board),
    (ActionKind::Quote, "quote", Kind::Post),
    (ActionKind::Message, "msg", Kind::User),
];

impl Family for Tablecraft {
    fn profile(&self) -> &FamilyProfile {
        &self.profile
    }

    fn encode(&self, address: &Address, _history: &ForumHistory) -> String {
        let variant = &address.variant;
        let numbered = |page: u32| page > 1 || variant.explicit_first_page;
        match &address.route {
            // Quirks this engine lacks are spelled as the plain route they stand for.
            Route::BoardAfter { .. } | Route::HiddenThread { .. } | Route::AllThreads { .. } => {
                self.encode(&without_quirks(address), _history)
            }
            Route::Portal => "/".to_string(),
            Route::Board { board, page } => {
                let mut url = format!("/b/{}/", Kind::Board.hide(*board));
                if numbered(*page) {
                    let _ = write!(url, "{page}.html");
                }
                // The default order is only named in the query by alias spellings.
                if variant.sort != SortOrder::LastPost || variant.alias {
                    url = url + "?sort=" + variant.sort.key();
                }
                url
            }
            Route::Thread { thread, page } if numbered(*page) => {
                format!("/t/{}-{page}.html", Kind::Thread.hide(*thread))
            }
            Route::Thread { thread, .. } => format!("/t/{}.html", Kind::Thread.hide(*thread)),
            Route::Post { post } => format!("/p/{}", Kind::Post.hide(*post)),
            Route::Print { thread } => format!("/t/{}.html?print=1", Kind::Thread.hide(*thread)),
            Route::ArchiveBoard { board } => format!("/old/b{board}.htm"),
            Route::ArchiveThread { thread } => format!("/old/t{thread}.htm"),
            Route::AdjacentThread { thread, newer } => {
                let direction = if *newer { "next" } else { "prev" };
                format!("/t/{}.html?go={direction}", Kind::Thread.hide(*thread))
            }
            Route::Profile { user } => format!("/u/{}.html", Kind::User.hide(*user)),
            Route::MemberList { page } if numbered(*page) => format!("/members/{page}.html"),
            Route::MemberList { .. } => "/members/".to_string(),
            Route::Calendar { year, month } => format!("/cal/{year:04}{month:02}.html"),
            Route::Search { page } if numbered(*page) => format!("/new/{page}.html"),
            Route::Search { .. } => "/new/".to_string(),
            Route::Login { next: None } => "/login.html".to_string(),
            Route::Login { next: Some(next) } => {
                format!("/login.html?back={}", percent_encode(next))
            }
            Route::Action { kind, target } => {
                // The table names every kind of action, so the fallback is never taken.
                let entry = ACTIONS.iter().find(|entry| entry.0 == *kind);
                let (_, folder, id_kind) = entry.unwrap_or(&ACTIONS[0]);
                format!("/{folder}/{}.html", id_kind.hide(*target))
            }
        }
    }

    fn decode(&self, path_and_query: &str, _history: &ForumHistory) -> Option<Address> {
        let (path, query) = split_path_and_query(path_and_query);
        let pairs = parse_query(query);
        let mut variant = Variant::default();
        let route = match path {
            "/" => Route::Portal,
            "/login.html" => {
                let next = query_value(&pairs, "back").map(str::to_string);
                Route::Login { next }
            }
            "/members/" => Route::MemberList { page: 1 },
            "/new/" => Route::Search { page: 1 },
            _ => {
                let (folder, rest) = path.strip_prefix('/')?.split_once('/')?;
                let html = rest.strip_suffix(".html");
                match folder {
                    "b" => {
                        let (id, file) = rest.split_once('/')?;
                        let board = Kind::Board.reveal(id)?;
                        let page = match file {
                            "" => 1,
                            file => page_number(file.strip_suffix(".html")?)?,
                        };
                        variant.explicit_first_page = file == "1.html";
                        if let Some(key) = query_value(&pairs, "sort") {
                            variant.sort = SortOrder::from_key(key)?;
                            // Naming the default order is a second spelling of the same list.
                            variant.alias = variant.sort == SortOrder::LastPost;
                        }
                        Route::Board { board, page }
                    }
                    "t" => {
                        let (id, page) = match html?.split_once('-') {
                            Some((id, page)) => (id, Some(page_number(page)?)),
                            None => (html?, None),
                        };
                        let thread = Kind::Thread.reveal(id)?;
                        let print = query_value(&pairs, "print") == Some("1");
                        match (page, query_value(&pairs, "go")) {
                            (Some(page), _) => {
                                variant.explicit_first_page = page == 1;
                                Route::Thread { thread, page }
                            }
                            (None, _) if print => Route::Print { thread },
                            (None, Some(direction @ ("next" | "prev"))) => {
                                let newer = direction == "next";
                                Route::AdjacentThread { thread, newer }
                            }
                            (None, _) => Route::Thread { thread, page: 1 },
                        }
                    }
                    "p" => {
                        let post = Kind::Post.reveal(rest)?;
                        Route::Post { post }
                    }
                    "u" => {
                        let user = Kind::User.reveal(html?)?;
                        Route::Profile { user }
                    }
                    "old" => match rest.strip_suffix(".htm")?.split_at_checked(1)? {
                        ("b", board) => {
                            let board = plain_number(board)?;
                            Route::ArchiveBoard { board }
                        }
                        ("t", thread) => {
                            let thread = plain_number(thread)?;
                            Route::ArchiveThread { thread }
                        }
                        _ => return None,
                    },
                    "members" | "new" => {
                        let page = page_number(html?)?;
                        variant.explicit_first_page = page == 1;
                        match folder {
                            "members" => Route::MemberList { page },
                            _ => Route::Search { page },
                        }
                    }
                    "cal" => {
                        let text = html.filter(|text| text.len() >= 6)?;
                        let (year, month) = text.split_at(text.len() - 2);
                        let (year, month): (i32, u32) = (year.parse().ok()?, month.parse().ok()?);
                        // Only the site's own spelling (four-digit year, two-digit month) exists.
                        let canonical = format!("{year:04}{month:02}") == text;
                        canonical.then_some(Route::Calendar { year, month })?
                    }
                    folder => {
                        let (kind, _, id_kind) = ACTIONS.iter().find(|entry| entry.1 == folder)?;
                        let (kind, target) = (*kind, id_kind.reveal(html?)?);
                        Route::Action { kind, target }
                    }
                }
            }
        };
        Some(Address { route, variant })
    }

    fn render(&self, page: &Page, context: &RenderContext<'_>) -> String {
        templates::render(page, context)
    }
}
