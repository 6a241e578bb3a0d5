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

use std::fmt::{self, Write};

use super::{
    AdjacentThreads, Charset, Family, FamilyProfile, LoginWall, PermalinkStyle, RenderContext,
};
use crate::history::ForumHistory;
use crate::html::{escape, parse_query, percent_encode, query_value, split_path_and_query};
use crate::route::{ActionKind, Address, Route, SortOrder, Variant};
use crate::text::Language;
use crate::views::*;

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

/// A decimal number as the site writes it: digits only, no sign, no leading zero.
fn plain_number(text: &str) -> Option<u32> {
    let digits = !text.is_empty() && text.bytes().all(|byte| byte.is_ascii_digit());
    let canonical = digits && (text == "0" || !text.starts_with('0'));
    if canonical { text.parse().ok() } else { None }
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
        let mut writer = Writer {
            html: String::with_capacity(32 * 1024),
            context,
        };
        writer.page(page);
        writer.html
    }
}

// The page templates. Each `{field}` is filled by the writer method that uses the template; the
// templates hold no other braces.

const PAGE_TOP: &str = "<html>\n<head>\n\
<meta http-equiv=\"Content-Type\" content=\"text/html; charset=big5\">\n<title>{title}</title>\n\
</head>\n<body bgcolor=\"#ffffff\" text=\"#000000\" link=\"#003399\" vlink=\"#663399\">\n<center>\n\
<table width=\"760\" border=\"0\" cellpadding=\"0\" cellspacing=\"0\"><tr><td>\n\
<table width=\"100%\" border=\"0\" cellpadding=\"4\" cellspacing=\"1\" bgcolor=\"#cccccc\">\n\
<tr bgcolor=\"#336699\"><td><font size=\"4\" color=\"#ffffff\"><b>{forum}</b></font></td>\n\
<td align=\"right\"><font size=\"2\" color=\"#ffffff\">{clock}</font></td></tr>\n\
<tr bgcolor=\"#eeeeee\"><td colspan=\"2\"><font size=\"2\">{menu}</font></td></tr>\n</table>\n\
{advertisement}<br>\n<font size=\"2\">{breadcrumbs}</font><br><br>\n";

const PAGE_BOTTOM: &str = "<br>\n<hr size=\"1\" noshade>\n<font size=\"2\">\
主題：{threads}　文章：{posts}　會員：{members}{newest}</font><br>\n<font size=\"1\">\
Copyright &copy; 1999-2025 {forum}. All rights reserved.</font>\n</td></tr></table>\n</center>\n\
</body>\n</html>\n";

/// Every table of the site looks like this.
const TABLE: &str =
    "<table width=\"100%\" border=\"0\" cellpadding=\"4\" cellspacing=\"1\" bgcolor=\"#cccccc\">\n";

const THREAD_LIST_HEAD: &str = "<tr bgcolor=\"#336699\"><td><font size=\"2\" color=\"#ffffff\"><b>\
主題</b></font></td><td width=\"90\" align=\"center\"><font size=\"2\" color=\"#ffffff\"><b>\
作者</b></font></td><td width=\"50\" align=\"center\"><font size=\"2\" color=\"#ffffff\"><b>\
回覆</b></font></td><td width=\"50\" align=\"center\"><font size=\"2\" color=\"#ffffff\"><b>\
人氣</b></font></td><td width=\"160\" align=\"center\"><font size=\"2\" color=\"#ffffff\"><b>\
最後回覆</b></font></td></tr>\n";

const THREAD_ROW: &str = "<tr bgcolor=\"{color}\"><td><font size=\"2\">\
{sticky}{title}{pages}</font></td><td align=\"center\"><font size=\"2\">{author}</font><br>\
<font size=\"1\">{started}</font></td><td align=\"center\"><font size=\"2\">{replies}</font></td>\
<td align=\"center\"><font size=\"2\">{views}</font></td><td><font size=\"2\">{last_time}<br>\
by {last_author} {last_link}</font></td></tr>\n";

const BOARD_ROW: &str = "<tr bgcolor=\"{color}\"><td><font size=\"2\">{name}</font></td>\
<td align=\"center\"><font size=\"2\">{threads}</font></td><td align=\"center\"><font size=\"2\">\
{posts}</font></td><td><font size=\"2\">{last}</font></td></tr>\n";

const TOOLBAR: &str = "<table width=\"100%\" border=\"0\" cellpadding=\"2\" cellspacing=\"0\"><tr>\
<td><font size=\"2\">{tools}</font></td><td align=\"right\"><font size=\"2\">{pager}</font></td>\
</tr></table>\n";

const POST: &str = "<tr bgcolor=\"#e8eef7\"><td colspan=\"2\"><font size=\"2\">\
<a name=\"{anchor}\"></a>作者：{author}　發表時間：{date}　{links}</font></td></tr>\n\
<tr bgcolor=\"#ffffff\"><td width=\"150\" valign=\"top\"><font size=\"2\">{about}</font></td>\
<td valign=\"top\"><font size=\"2\">{text}</font>{signature}</td></tr>\n";

const WHOLE_THREAD_POST: &str = "<p><font size=\"2\"><b>作者：</b>{author}　<b>發表時間：</b>\
{date}</font></p>\n<blockquote><font size=\"2\">{text}</font></blockquote>\n<hr size=\"1\" noshade>\
\n";

const LOGIN: &str = "<form method=\"post\" action=\"{action}\">\n\
<table width=\"400\" border=\"0\" cellpadding=\"4\" cellspacing=\"1\" \
bgcolor=\"#cccccc\" align=\"center\">\
\n<tr bgcolor=\"#336699\"><td colspan=\"2\"><font size=\"2\" color=\"#ffffff\"><b>{message}</b>\
</font></td></tr>\n<tr bgcolor=\"#ffffff\"><td><font size=\"2\">帳號</font></td><td>\
<input type=\"text\" name=\"username\" size=\"20\"></td></tr>\n<tr bgcolor=\"#ffffff\"><td>\
<font size=\"2\">密碼</font></td><td><input type=\"password\" name=\"password\" size=\"20\"></td>\
</tr>\n<tr bgcolor=\"#eeeeee\"><td colspan=\"2\" align=\"center\">\
<input type=\"submit\" value=\"登入\"></td></tr>\n</table>\n</form>\n";

/// Row colours alternate between these two.
const ROW_COLORS: [&str; 2] = ["#ffffff", "#f0f0f0"];

/// A page being written: the markup so far and the context its links and dates need.
struct Writer<'a, 'b> {
    html: String,
    context: &'a RenderContext<'b>,
}

impl Write for Writer<'_, '_> {
    fn write_str(&mut self, text: &str) -> fmt::Result {
        self.html.push_str(text);
        Ok(())
    }
}

impl Writer<'_, '_> {
    fn put(&mut self, markup: &str) {
        self.html.push_str(markup);
    }

    fn text(&mut self, text: &str) {
        self.html.push_str(&escape(text));
    }

    fn number(&mut self, number: u32) {
        let _ = write!(self, "{number}");
    }

    /// Writes `template`, letting `field` write each `{name}` it holds. A field the closure
    /// writes nothing for (an absent optional part) is simply left out.
    fn fill(&mut self, template: &str, mut field: impl FnMut(&mut Self, &str)) {
        let mut rest = template;
        while let Some((before, after)) = rest.split_once('{') {
            let (name, after) = after.split_once('}').unwrap_or((after, ""));
            self.put(before);
            field(self, name);
            rest = after;
        }
        self.put(rest);
    }

    /// `<a href="…">label</a>`; `label` is markup, so callers escape text themselves.
    fn link(&mut self, route: &Route, label: &str) {
        self.link_address(Address::canonical(route.clone()), label);
    }

    fn link_address(&mut self, address: Address, label: &str) {
        let href = self.context.href_address(address);
        let _ = write!(self, "<a href=\"{href}\">{label}</a>");
    }

    /// `[<a href="…">label</a>]`, the bracketed button of the site, when the view offers it.
    fn button(&mut self, route: Option<&Route>, label: &str) {
        if let Some(route) = route {
            self.put("[");
            self.link(route, label);
            self.put("] ");
        }
    }

    fn user(&mut self, user: &UserCard) {
        match &user.profile {
            Some(route) => self.link(route, &escape(&user.name)),
            None => self.text(&user.name),
        }
    }

    /// `2025/03/30 22:11`, the only date format of the site.
    fn date(&mut self, instant: i64) {
        let local = self.context.local(instant);
        let (year, month, day) = (local.year, local.month, local.day);
        let _ = write!(
            self,
            "{year}/{month:02}/{day:02} {:02}:{:02}",
            local.hour, local.minute
        );
    }

    /// The header row of a table: one white bold label per column.
    fn head_row(&mut self, labels: &[&str]) {
        self.put("<tr bgcolor=\"#336699\">");
        for label in labels {
            let _ = write!(
                self,
                "<td><font size=\"2\" color=\"#ffffff\"><b>{label}</b></font></td>"
            );
        }
        self.put("</tr>\n");
    }

    /// "共 3 頁　頁次：" followed by bracketed page numbers and previous/next links.
    fn pager(&mut self, pager: &Pager) {
        let _ = write!(self, "共 {} 頁　頁次：", pager.total.max(1));
        if let Some(previous) = &pager.previous {
            self.link_address(previous.clone(), "上一頁");
            self.put(" ");
        }
        let mut shown = 0;
        for (number, address) in &pager.pages {
            if *number > shown + 1 {
                self.put("... ");
            }
            shown = *number;
            if *number == pager.current {
                let _ = write!(self, "<b>[{number}]</b> ");
            } else {
                self.put("[");
                self.link_address(address.clone(), &number.to_string());
                self.put("] ");
            }
        }
        if let Some(next) = &pager.next {
            self.link_address(next.clone(), "下一頁");
        }
    }

    fn page(&mut self, page: &Page) {
        let chrome = &page.chrome;
        let navigation = &chrome.navigation;
        let title = match &page.body {
            Body::MemberList(_) => "會員列表",
            Body::Calendar(_) => "行事曆",
            Body::Search(_) => "最新文章",
            Body::Login(_) => "會員登入",
            Body::NotFound => "找不到此頁面",
            _ => chrome.title.as_str(),
        };
        self.fill(PAGE_TOP, |out, field| match field {
            "title" if title == chrome.forum_name => out.text(title),
            "title" => out.text(&format!("{} - {title}", chrome.forum_name)),
            "forum" => out.text(&chrome.forum_name),
            "clock" => {
                if let Some(clock) = chrome.clock {
                    out.put("現在時間：");
                    out.date(clock);
                }
                if let Some(last_visit) = chrome.last_visit {
                    out.put("<br>上次來訪：");
                    out.date(last_visit);
                }
            }
            "menu" => {
                out.link(&navigation.portal, "首頁");
                let menu = [
                    &navigation.search,
                    &navigation.members,
                    &navigation.calendar,
                ];
                for (route, label) in menu.into_iter().zip(["最新文章", "會員列表", "行事曆"])
                {
                    if let Some(route) = route {
                        out.put(" | ");
                        out.link(route, label);
                    }
                }
                out.put(" | ");
                out.link(&navigation.login, "登入");
            }
            "advertisement" => {
                if let Some(advertisement) = chrome.advertisement {
                    out.put("<br><center><font size=\"2\">");
                    let slot = advertisement.len();
                    let _ = write!(out, "<a href=\"https://ads.example.net/banner?id={slot}\">");
                    out.text(advertisement);
                    out.put("</a></font></center>\n");
                }
            }
            _ => {
                for (route, label) in &chrome.breadcrumbs {
                    out.link(route, &escape(label));
                    out.put(" &gt; ");
                }
                let _ = write!(out, "<b>{}</b>", escape(title));
            }
        });
        self.body(&page.body);
        let footer = &chrome.footer;
        self.fill(PAGE_BOTTOM, |out, field| match field {
            "threads" => out.number(footer.threads),
            "posts" => out.number(footer.posts),
            "members" => out.number(footer.members),
            "forum" => out.text(&chrome.forum_name),
            _ => {
                if let Some(member) = &footer.newest_member {
                    out.put("　最新會員：");
                    out.user(member);
                }
            }
        });
    }

    fn body(&mut self, body: &Body) {
        match body {
            Body::Portal(view) => self.portal(view),
            Body::Board(view) => self.board(view),
            Body::Thread(view) => self.thread(view),
            Body::SinglePost(view) => {
                self.fill(TOOLBAR, |out, field| match field {
                    "tools" => out.button(Some(&view.in_thread), "回到主題"),
                    _ => out.text(&view.thread.1),
                });
                self.put(TABLE);
                self.post(&view.post);
                self.put("</table>\n");
            }
            Body::Print(view) => self.whole_thread(view, "原文網址"),
            Body::ArchiveThread(view) => self.whole_thread(view, "舊版存檔，新版網址"),
            Body::ArchiveBoard(view) => {
                let _ = writeln!(
                    self,
                    "<font size=\"3\"><b>{}</b></font>\n<ul>",
                    escape(&view.name)
                );
                for (route, title) in &view.threads {
                    self.put("<li><font size=\"2\">");
                    self.link(route, &escape(title));
                    self.put("</font></li>\n");
                }
                self.put("</ul>\n");
            }
            Body::Profile(view) => self.profile(view),
            Body::MemberList(view) => {
                self.put(TABLE);
                self.head_row(&["會員名稱", "文章數", "註冊日期"]);
                for (index, member) in view.members.iter().enumerate() {
                    let _ = write!(
                        self,
                        "<tr bgcolor=\"{}\"><td><font size=\"2\">",
                        ROW_COLORS[index % 2]
                    );
                    self.user(member);
                    let _ = write!(self, "</font></td><td><font size=\"2\">{}", member.posts);
                    self.put("</font></td><td><font size=\"2\">");
                    if let Some(joined) = member.joined {
                        self.date(joined);
                    }
                    self.put("</font></td></tr>\n");
                }
                self.put("</table>\n<font size=\"2\">");
                self.pager(&view.pager);
                self.put("</font>\n");
            }
            Body::Calendar(view) => {
                let (year, month) = (view.year, view.month);
                let _ = write!(
                    self,
                    "<font size=\"3\"><b>{year}年{month}月</b></font><br>\n<font size=\"2\">"
                );
                self.link(&view.previous, "&lt;&lt; 上個月");
                self.put("　");
                self.link(&view.next, "下個月 &gt;&gt;");
                self.put("</font><br><br>\n");
                self.put(TABLE);
                self.head_row(&["日期", "活動"]);
                for (day, route, title) in &view.events {
                    let _ = write!(
                        self,
                        "<tr bgcolor=\"#ffffff\"><td><font size=\"2\">{month}/{day}"
                    );
                    self.put("</font></td><td><font size=\"2\">");
                    self.link(route, &escape(title));
                    self.put("</font></td></tr>\n");
                }
                self.put("</table>\n");
            }
            Body::Search(view) => {
                self.put(TABLE);
                self.put(THREAD_LIST_HEAD);
                for (index, summary) in view.results.iter().enumerate() {
                    self.thread_row(summary, index);
                }
                let _ = write!(self, "</table>\n<font size=\"2\">第 {} 頁　", view.page);
                self.button(view.previous.as_ref(), "上一頁");
                self.button(Some(&view.next), "下一頁");
                self.put("</font>\n");
            }
            Body::Login(view) => self.fill(LOGIN, |out, field| match field {
                "message" if view.reason == LoginReason::Requested => out.put("會員登入"),
                "message" => out.put("請先登入會員才能使用此功能"),
                _ => out.put(&out.context.href(&view.form_action)),
            }),
            Body::NotFound => {
                self.put(
                    "<p align=\"center\"><font size=\"3\" color=\"#cc0000\"><b>找不到此頁面</b>",
                );
                self.put("</font></p>\n");
            }
        }
    }

    /// The "latest discussions" table of the portal and board pages.
    fn latest(&mut self, latest: &[ThreadSummary]) {
        if latest.is_empty() {
            return;
        }
        self.put("<br>\n");
        self.put(TABLE);
        self.head_row(&["最新討論", "最後回覆"]);
        for summary in latest {
            self.put("<tr bgcolor=\"#ffffff\"><td><font size=\"2\">");
            self.link(&summary.link, &escape(&summary.title));
            self.put("</font></td><td width=\"160\"><font size=\"2\">");
            self.date(summary.last_post.created);
            self.put(" ");
            self.link(&summary.last_post.link, "&gt;&gt;");
            self.put("</font></td></tr>\n");
        }
        self.put("</table>\n");
    }

    fn portal(&mut self, view: &PortalView) {
        self.put(TABLE);
        self.head_row(&["討論區", "主題", "文章", "最後發表"]);
        for category in &view.categories {
            self.put("<tr bgcolor=\"#dde4ee\"><td colspan=\"4\"><font size=\"2\"><b>");
            self.text(&category.name);
            self.put("</b></font></td></tr>\n");
            for (index, board) in category.boards.iter().enumerate() {
                self.fill(BOARD_ROW, |out, field| match field {
                    "color" => out.put(ROW_COLORS[index % 2]),
                    "name" => out.link(&board.link, &format!("<b>{}</b>", escape(&board.name))),
                    "threads" => out.number(board.threads),
                    "posts" => out.number(board.posts),
                    _ => match &board.last_post {
                        Some(last) => {
                            out.link(&last.link, &escape(&last.thread_title));
                            out.put("<br>");
                            out.date(last.created);
                            out.put(" by ");
                            out.user(&last.author);
                        }
                        None => out.put("-"),
                    },
                });
            }
        }
        self.put("</table>\n");
        self.latest(&view.latest);
    }

    fn board(&mut self, view: &BoardView) {
        let _ = writeln!(
            self,
            "<font size=\"3\"><b>{}</b></font>",
            escape(&view.name)
        );
        self.fill(TOOLBAR, |out, field| match field {
            "tools" => {
                out.button(view.new_thread.as_ref(), "發表新主題");
                if !view.sort_links.is_empty() {
                    out.put("排序：");
                }
                for (sort, address) in &view.sort_links {
                    let label = match sort {
                        SortOrder::LastPost => "最後回覆",
                        SortOrder::Title => "主題",
                        SortOrder::Author => "作者",
                        SortOrder::Replies => "回覆數",
                        SortOrder::Created => "發表時間",
                    };
                    out.link_address(address.clone(), label);
                    out.put(" ");
                }
            }
            _ => out.pager(&view.pager),
        });
        self.put(TABLE);
        self.put(THREAD_LIST_HEAD);
        for (index, summary) in view.stickies.iter().chain(&view.threads).enumerate() {
            self.thread_row(summary, index);
        }
        self.put("</table>\n<font size=\"2\">");
        self.pager(&view.pager);
        self.put("<br>");
        self.button(view.archive.as_ref(), "舊版存檔");
        self.put("</font>\n");
        self.latest(&view.latest);
    }

    /// One thread of a list: title (with its page links), starter, replies, views, last reply.
    fn thread_row(&mut self, summary: &ThreadSummary, index: usize) {
        self.fill(THREAD_ROW, |out, field| match field {
            "color" => out.put(ROW_COLORS[index % 2]),
            "sticky" if summary.sticky => out.put("<font color=\"#cc0000\">[置頂]</font> "),
            "title" => out.link(&summary.link, &escape(&summary.title)),
            "pages" if !summary.page_links.is_empty() => {
                out.put(" <font size=\"1\">[ 頁：");
                for (number, route) in &summary.page_links {
                    out.put(" ");
                    out.link(route, &number.to_string());
                }
                out.put(" ]</font>");
            }
            "author" => out.user(&summary.author),
            "started" => out.date(summary.created),
            "replies" => out.number(summary.replies),
            "views" => out.number(summary.views),
            "last_time" => out.date(summary.last_post.created),
            "last_author" => out.user(&summary.last_post.author),
            "last_link" => out.link(&summary.last_post.link, "&gt;&gt;"),
            _ => {}
        });
    }

    fn thread(&mut self, view: &ThreadView) {
        let _ = writeln!(
            self,
            "<font size=\"3\"><b>{}</b></font>",
            escape(&view.title)
        );
        self.fill(TOOLBAR, |out, field| match field {
            "tools" => {
                out.button(view.reply.as_ref(), "回覆主題");
                out.button(view.print.as_ref(), "列印");
                out.button(view.previous_thread.as_ref(), "&lt; 上一主題");
                out.button(view.next_thread.as_ref(), "下一主題 &gt;");
            }
            _ => out.pager(&view.pager),
        });
        self.put(TABLE);
        for post in &view.posts {
            self.post(post);
        }
        self.put("</table>\n<font size=\"2\">");
        self.pager(&view.pager);
        let (board, page) = (view.board.0, 1);
        self.put("<br>回到 ");
        self.link(&Route::Board { board, page }, &escape(&view.board.1));
        self.put(" ");
        self.button(view.archive.as_ref(), "舊版存檔");
        self.put("</font>\n");
    }

    /// A post: a header row with author and time, then the author's cell and the text cell.
    fn post(&mut self, post: &PostView) {
        self.fill(POST, |out, field| match field {
            "anchor" => out.put(&Kind::Post.hide(post.post)),
            "author" => out.user(&post.author),
            "date" => out.date(post.created),
            "links" => {
                let number = format!("#{}", post.number);
                match &post.permalink {
                    Some(route) => out.link(route, &number),
                    None => out.put(&number),
                }
                out.put(" ");
                out.button(post.quote.as_ref(), "引用");
            }
            "about" => {
                if let Some(joined) = post.author.joined {
                    out.put("註冊日期：");
                    out.date(joined);
                    out.put("<br>");
                }
                let _ = write!(out, "文章數：{}", post.author.posts);
                if let Some(route) = &post.message {
                    out.put("<br>");
                    out.button(Some(route), "傳送訊息");
                }
            }
            "text" => out.paragraphs(post),
            "signature" => {
                if let Some(signature) = &post.signature {
                    out.put("<br><br><font size=\"1\" color=\"#666666\">----------<br>");
                    out.text(signature);
                    out.put("</font>");
                }
            }
            _ => {}
        });
    }

    /// The post text: paragraphs separated by `<br>`, nothing else inside the text element.
    fn paragraphs(&mut self, post: &PostView) {
        for (index, paragraph) in post.paragraphs.iter().enumerate() {
            if index > 0 {
                self.put("<br>\n");
            }
            self.text(paragraph);
        }
    }

    /// The print view and the old archive's thread page: the posts one after another.
    fn whole_thread(&mut self, view: &WholeThreadView, back: &str) {
        let _ = writeln!(
            self,
            "<font size=\"3\"><b>{}</b></font><br>",
            escape(&view.title)
        );
        let _ = write!(self, "<font size=\"2\">{back}：");
        self.link(&view.original, &escape(&view.title));
        self.put("</font>\n<hr size=\"1\" noshade>\n");
        for post in &view.posts {
            self.fill(WHOLE_THREAD_POST, |out, field| match field {
                "author" => out.user(&post.author),
                "date" => out.date(post.created),
                _ => out.paragraphs(post),
            });
        }
    }

    fn profile(&mut self, view: &ProfileView) {
        let user = &view.user;
        self.put(TABLE);
        self.put("<tr bgcolor=\"#336699\"><td colspan=\"2\"><font size=\"2\" color=\"#ffffff\">");
        let _ = writeln!(
            self,
            "<b>會員資料：{}</b></font></td></tr>",
            escape(&user.name)
        );
        let joined = Some(view.joined);
        let rows = [("註冊日期", joined), ("最後來訪", view.last_visit)];
        for (index, (label, instant)) in rows.into_iter().enumerate() {
            if let Some(instant) = instant {
                let color = ROW_COLORS[index % 2];
                let _ = write!(
                    self,
                    "<tr bgcolor=\"{color}\"><td width=\"120\"><font size=\"2\">"
                );
                let _ = write!(self, "{label}</font></td><td><font size=\"2\">");
                self.date(instant);
                self.put("</font></td></tr>\n");
            }
        }
        self.put("<tr bgcolor=\"#ffffff\"><td><font size=\"2\">文章數</font></td>");
        let _ = writeln!(
            self,
            "<td><font size=\"2\">{}</font></td></tr>\n</table>",
            user.posts
        );
        self.put("<font size=\"2\">");
        self.button(view.message.as_ref(), "傳送訊息");
        self.put("<br><br><b>最近發表的主題</b></font>\n<ul>\n");
        for (route, title) in &view.recent_threads {
            self.put("<li><font size=\"2\">");
            self.link(route, &escape(title));
            self.put("</font></li>\n");
        }
        self.put("</ul>\n");
    }
}

#[cfg(test)]
mod tests {
    use std::sync::OnceLock;

    use super::*;
    use crate::{FamilyName, HISTORY_END_SECONDS, Scale, Site, SiteConfig};

    fn site() -> &'static Site {
        static SITE: OnceLock<Site> = OnceLock::new();
        SITE.get_or_init(|| Site::build(SiteConfig::new(FamilyName::Tablecraft, 7, Scale::Small)))
    }

    /// Asserts that `url` decodes to `expected` and, unless that is an alias, encodes back.
    fn check(url: &str, expected: Option<Address>) {
        assert_eq!(site().address_of(url), expected, "decoding {url}");
        if let Some(address) = expected.filter(|address| !address.variant.alias) {
            assert_eq!(site().url_of(&address), url, "encoding {address:?}");
        }
    }

    fn at(route: Route) -> Option<Address> {
        Some(Address::canonical(route))
    }

    fn with(route: Route, change: impl FnOnce(&mut Variant)) -> Option<Address> {
        let mut address = Address::canonical(route);
        change(&mut address.variant);
        Some(address)
    }

    fn explicit(route: Route) -> Option<Address> {
        with(route, |variant| variant.explicit_first_page = true)
    }

    fn sorted(route: Route, sort: SortOrder) -> Option<Address> {
        with(route, |variant| variant.sort = sort)
    }

    fn board(board: u32, page: u32) -> Route {
        Route::Board { board, page }
    }

    fn thread(thread: u32, page: u32) -> Route {
        Route::Thread { thread, page }
    }

    #[test]
    fn ids_scramble_reversibly() {
        for kind in [Kind::Board, Kind::Thread, Kind::Post, Kind::User] {
            for id in (1..5_000).chain([u32::MAX, 0x8000_0000, 123_456_789]) {
                let text = kind.hide(id);
                assert_eq!(text.len(), 8);
                assert_eq!(kind.reveal(&text), Some(id), "{kind:?} {id} {text}");
            }
            assert_eq!(kind.reveal(&kind.hide(0)), None, "{kind:?}: 0 is no id");
        }
        assert_ne!(Kind::Board.hide(7), Kind::Thread.hide(7));
        assert_ne!(Kind::Post.hide(1)[..4], Kind::Post.hide(2)[..4]);
    }

    #[test]
    fn urls_decode_to_their_routes() {
        let (b3, t9) = (Kind::Board.hide(3), Kind::Thread.hide(9));
        let (p40, u5) = (Kind::Post.hide(40), Kind::User.hide(5));
        check("/", at(Route::Portal));
        check(&format!("/b/{b3}/"), at(board(3, 1)));
        check(&format!("/b/{b3}/2.html"), at(board(3, 2)));
        check(&format!("/b/{b3}/1.html"), explicit(board(3, 1)));
        check(
            &format!("/b/{b3}/?sort=title"),
            sorted(board(3, 1), SortOrder::Title),
        );
        check(
            &format!("/b/{b3}/3.html?sort=created"),
            sorted(board(3, 3), SortOrder::Created),
        );
        let explicit_by_author = with(board(3, 1), |variant| {
            (variant.sort, variant.explicit_first_page) = (SortOrder::Author, true);
        });
        check(&format!("/b/{b3}/1.html?sort=author"), explicit_by_author);
        let default_named = with(board(3, 1), |variant| variant.alias = true);
        check(&format!("/b/{b3}/?sort=lastpost"), default_named);
        check(&format!("/t/{t9}.html"), at(thread(9, 1)));
        check(&format!("/t/{t9}-2.html"), at(thread(9, 2)));
        check(&format!("/t/{t9}-1.html"), explicit(thread(9, 1)));
        check(
            &format!("/t/{t9}.html?print=1"),
            at(Route::Print { thread: 9 }),
        );
        check(&format!("/p/{p40}"), at(Route::Post { post: 40 }));
        check(&format!("/u/{u5}.html"), at(Route::Profile { user: 5 }));
        check("/old/b3.htm", at(Route::ArchiveBoard { board: 3 }));
        check("/old/t123.htm", at(Route::ArchiveThread { thread: 123 }));
        check("/members/", at(Route::MemberList { page: 1 }));
        check("/members/1.html", explicit(Route::MemberList { page: 1 }));
        check("/members/3.html", at(Route::MemberList { page: 3 }));
        check(
            "/cal/202503.html",
            at(Route::Calendar {
                year: 2025,
                month: 3,
            }),
        );
        check("/new/", at(Route::Search { page: 1 }));
        check("/new/4.html", at(Route::Search { page: 4 }));
        check("/login.html", at(Route::Login { next: None }));
        let next = Some(format!("/reply/{t9}.html"));
        check(
            &format!("/login.html?back=/reply/{t9}.html"),
            at(Route::Login { next }),
        );
        let action = |kind, target| at(Route::Action { kind, target });
        check(&format!("/reply/{t9}.html"), action(ActionKind::Reply, 9));
        check(
            &format!("/post/{b3}.html"),
            action(ActionKind::NewThread, 3),
        );
        check(&format!("/quote/{p40}.html"), action(ActionKind::Quote, 40));
        check(&format!("/msg/{u5}.html"), action(ActionKind::Message, 5));
        // Unknown parameters are ignored.
        assert_eq!(
            site().address_of(&format!("/t/{t9}-2.html?from=new")),
            at(thread(9, 2))
        );
    }

    #[test]
    fn urls_the_site_does_not_have() {
        let (b3, t9, u5) = (
            Kind::Board.hide(3),
            Kind::Thread.hide(9),
            Kind::User.hide(5),
        );
        let zero = Kind::Thread.hide(0);
        let upper = t9.to_uppercase();
        let junk = [
            format!("/b/{b3}"),
            format!("/b/{b3}/0.html"),
            format!("/b/{b3}/01.html"),
            format!("/b/{b3}/?sort=views"),
            format!("/b/{t9}x/"),
            format!("/t/{upper}.html"),
            format!("/t/{zero}.html"),
            format!("/t/{t9}-0.html"),
            format!("/t/{}.html", &t9[1..]),
            format!("/t/{t9}"),
            format!("/u/{u5}"),
            format!("/x/{u5}.html"),
            "/index.html".to_string(),
            "/old/b3.html".to_string(),
            "/old/x3.htm".to_string(),
            "/old/b03.htm".to_string(),
            "/members/0.html".to_string(),
            "/cal/2025.html".to_string(),
            "/cal/20253.html".to_string(),
            "/new/x.html".to_string(),
            "/viewtopic.php?t=1".to_string(),
        ];
        for url in junk {
            assert_eq!(site().address_of(&url), None, "{url}");
        }
    }

    /// Serves `url` and reads it back from Big5, asserting every character was representable.
    fn served(url: &str) -> (u16, String) {
        let response = site().serve(url, HISTORY_END_SECONDS, None);
        let (page, _, had_errors) = encoding_rs::BIG5.decode(&response.body);
        assert!(!had_errors && !page.contains('\u{fffd}'), "{url}");
        // The encoder writes characters Big5 lacks as numeric references; there must be none.
        assert!(!page.contains("&#"), "{url}");
        (response.status, page.into_owned())
    }

    #[test]
    fn thread_page_is_nested_tables_in_big5() {
        let history = site().history();
        let id = (1..=history.thread_count())
            .find(|&thread| history.thread_posts(thread).len() > 3)
            .expect("a thread with replies");
        let (status, page) = served(&format!("/t/{}.html", Kind::Thread.hide(id)));
        assert_eq!(status, 200);
        let meta = "<head>\n<meta http-equiv=\"Content-Type\" content=\"text/html; charset=big5\">";
        assert!(page.contains(meta));
        assert!(page.contains(TABLE.trim_end()) && page.contains("</a>作者：<a href=\"/u/"));
        assert!(!page.contains("class=") && !page.contains(" id="));
        let first = history.thread_posts(id)[0];
        let created = history.post(first).expect("first post").created;
        let local = crate::dates::local_time(created, 8 * 3_600);
        let (month, day, hour) = (local.month, local.day, local.hour);
        let date = format!("發表時間：{}/{month:02}/{day:02} {hour:02}:", local.year);
        assert!(page.contains(&date), "{date}");
        let text = crate::text::post_paragraphs(7, Language::TraditionalChinese, first);
        let paragraphs: Vec<String> = text.iter().map(|paragraph| escape(paragraph)).collect();
        let body = format!(
            "<td valign=\"top\"><font size=\"2\">{}</font>",
            paragraphs.join("<br>\n")
        );
        assert!(page.contains(&body), "{body}");
        assert!(page.contains("註冊日期：") && page.contains("文章數："));
    }

    #[test]
    fn walls_soft_errors_and_other_pages() {
        let reply = format!("/reply/{}.html", Kind::Thread.hide(1));
        let response = site().serve(&reply, HISTORY_END_SECONDS, None);
        assert_eq!(response.status, 301);
        let location = format!("/login.html?back={reply}");
        assert!(
            response
                .headers
                .contains(&("Location".to_string(), location))
        );
        let (status, page) = served(&format!("/t/{}.html", Kind::Thread.hide(999_999)));
        assert!(status == 200 && page.contains("找不到此頁面"));
        let (_, page) = served(&format!("/b/{}/", Kind::Board.hide(1)));
        assert!(page.contains("<b>回覆</b>") && page.contains("<b>最後回覆</b>"));
        for url in [
            "/",
            "/members/",
            "/new/",
            "/old/b1.htm",
            "/old/t1.htm",
            "/login.html",
        ] {
            assert_eq!(served(url).0, 200, "{url}");
        }
        let (_, page) = served(&format!("/p/{}", Kind::Post.hide(1)));
        assert!(page.contains("回到主題"));
    }
}
