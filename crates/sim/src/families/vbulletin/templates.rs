//! vBulletin's page frame: dates, numbers, header, footer, page navigation and shared pieces.

use std::fmt::{self, Write};

use super::{NO_THREAD, TBORDER};
use crate::dates;
use crate::families::RenderContext;
use crate::families::common::either;
use crate::html::escape;
use crate::route::{Address, Route};
use crate::views::{Body, Chrome, LastPost, Page, Pager, PostView, ThreadSummary, UserCard};

/// Writes `page` as a whole HTML document.
pub(super) fn render(page: &Page, context: &RenderContext<'_>) -> String {
    let mut out = Out {
        html: String::with_capacity(32 * 1024),
        context,
    };
    // Writing into a String cannot fail; fmt::Result only lets the templates use `?`.
    let _ = out.page(page);
    out.html
}

/// The day part of a vBulletin date: "Today", "Yesterday" or "03-30-2025".
pub(super) fn day(context: &RenderContext<'_>, instant: i64) -> String {
    match context.days_ago(instant) {
        0 => "Today".to_string(),
        1 => "Yesterday".to_string(),
        _ => {
            let local = context.local(instant);
            format!("{:02}-{:02}-{}", local.month, local.day, local.year)
        }
    }
}

/// The time part of a vBulletin date: "10:32 PM".
fn time(context: &RenderContext<'_>, instant: i64) -> String {
    let local = context.local(instant);
    let (hour, pm) = dates::twelve_hour(local.hour);
    format!(
        "{hour:02}:{:02} {}",
        local.minute,
        if pm { "PM" } else { "AM" }
    )
}

/// A post date: "Today, 10:32 PM", "Yesterday, 08:11 AM" or "03-30-2025, 10:11 PM".
pub(super) fn date(context: &RenderContext<'_>, instant: i64) -> String {
    format!("{}, {}", day(context, instant), time(context, instant))
}

/// A list-column date, day and time apart as vBulletin's thread lists print them.
pub(super) fn list_date(context: &RenderContext<'_>, instant: i64) -> String {
    format!(
        "{} <span class=\"time\">{}</span>",
        day(context, instant),
        time(context, instant)
    )
}

/// A postbit join date: "Join Date: Mar 2025".
pub(super) fn join_date(context: &RenderContext<'_>, instant: i64) -> String {
    let local = context.local(instant);
    format!(
        "<div>Join Date: {} {}</div>",
        dates::short_month(local.month),
        local.year
    )
}

/// A number with thousands separators, as vBulletin's `vb_number_format` prints it.
pub(super) fn grouped(number: u32) -> String {
    let digits = number.to_string();
    let mut text = String::with_capacity(digits.len() + 4);
    for (index, digit) in digits.chars().enumerate() {
        if index > 0 && (digits.len() - index).is_multiple_of(3) {
            text.push(',');
        }
        text.push(digit);
    }
    text
}

/// The default user titles vBulletin gives by post count.
pub(super) fn user_title(posts: u32) -> &'static str {
    match posts {
        0..=29 => "Junior Member",
        30..=99 => "Member",
        _ => "Senior Member",
    }
}

/// The zone label of the footer: "GMT -5", "GMT +5:30", "GMT".
pub(super) fn zone_label(offset_seconds: i32) -> String {
    let hours = offset_seconds / 3_600;
    match (hours, offset_seconds % 3_600) {
        (0, 0) => "GMT".to_string(),
        (_, 0) => format!("GMT {hours:+}"),
        (_, rest) => format!("GMT {hours:+}:{:02}", rest.abs() / 60),
    }
}

/// The text of the navbar's last entry and of `<title>` (before the forum's name).
fn page_label(page: &Page) -> String {
    let title = &page.chrome.title;
    match &page.body {
        Body::Portal(_) => page.chrome.forum_name.clone(),
        Body::Print(_) => format!("{title} - Printable Version"),
        Body::ArchiveThread(_) | Body::ArchiveBoard(_) => format!("{title} [Archive]"),
        Body::SinglePost(_) => format!("View Single Post - {title}"),
        Body::Profile(_) => format!("View Profile: {title}"),
        Body::MemberList(_) => "Members List".to_string(),
        Body::Calendar(_) => "Calendar".to_string(),
        Body::Search(_) => "Search Results".to_string(),
        Body::Login(_) => "Log in".to_string(),
        Body::NotFound => format!("{} Message", page.chrome.forum_name),
        Body::Board(_) | Body::Thread(_) => title.clone(),
    }
}

/// vBulletin's signature block, below the message and outside its element.
pub(super) fn signature(post: &PostView) -> String {
    either(post.signature.as_ref(), |text| {
        format!("<div>__________________<br />\n{}</div>\n", escape(text))
    })
}

/// Escaped paragraphs separated by `<br />`, the way vBulletin turns newlines into markup.
pub(super) fn paragraphs(post: &PostView) -> String {
    let escaped: Vec<String> = post.paragraphs.iter().map(|text| escape(text)).collect();
    escaped.join("<br />\n")
}

/// The page being written and the context its links are made in.
pub(super) struct Out<'a> {
    pub(super) html: String,
    pub(super) context: &'a RenderContext<'a>,
}

impl Out<'_> {
    pub(super) fn href(&self, route: &Route) -> String {
        self.context.href(route)
    }

    pub(super) fn href_address(&self, address: &Address) -> String {
        self.context.href_address(address.clone())
    }

    /// `<a href="…"{attributes}>{text}</a>` when the route is present, else nothing.
    pub(super) fn anchor(&self, route: Option<&Route>, attributes: &str, text: &str) -> String {
        either(route, |route| {
            format!("<a href=\"{}\"{attributes}>{text}</a>", self.href(route))
        })
    }

    /// A user's name, linked to the profile when profiles are served.
    pub(super) fn user(&self, user: &UserCard, attributes: &str) -> String {
        let name = escape(&user.name);
        match &user.profile {
            Some(route) => format!("<a href=\"{}\"{attributes}>{name}</a>", self.href(route)),
            None => name,
        }
    }

    /// The "go to last post" arrow, jumping to the post's anchor when it is a permalink.
    pub(super) fn jump(&self, last: &LastPost) -> String {
        let fragment = match last.link {
            Route::Post { post } => format!("#post{post}"),
            _ => String::new(),
        };
        let href = self.href(&last.link);
        format!(
            "<a href=\"{href}{fragment}\"><img class=\"inlineimg\" src=\"images/buttons/lastpost.gif\" \
             alt=\"Go to last post\" border=\"0\" /></a>"
        )
    }

    fn page(&mut self, page: &Page) -> fmt::Result {
        self.header(page)?;
        match &page.body {
            Body::Portal(view) => self.portal(view)?,
            Body::Board(view) => self.board(view)?,
            Body::Thread(view) => self.thread(view)?,
            Body::SinglePost(view) => self.single_post(view)?,
            Body::Print(view) => self.whole_thread(view, false)?,
            Body::ArchiveThread(view) => self.whole_thread(view, true)?,
            Body::ArchiveBoard(view) => self.archive_board(view)?,
            Body::Profile(view) => self.member(view)?,
            Body::MemberList(view) => self.member_list(view)?,
            Body::Calendar(view) => self.calendar(view)?,
            Body::Search(view) => self.search(view)?,
            Body::Login(view) => self.login(view, &page.chrome)?,
            Body::NotFound => self.message_box(&page.chrome, NO_THREAD)?,
        }
        self.footer(&page.chrome)
    }

    fn header(&mut self, page: &Page) -> fmt::Result {
        let chrome = &page.chrome;
        let navigation = &chrome.navigation;
        let (forum, label) = (escape(&chrome.forum_name), escape(&page_label(page)));
        let title = match page.body {
            Body::Portal(_) => forum.clone(),
            _ => format!("{label} - {forum}"),
        };
        let charset = self.context.profile().charset.label();
        let (portal, login) = (self.href(&navigation.portal), self.href(&navigation.login));
        let advertisement = either(chrome.advertisement, |text| {
            let (size, text) = (text.len(), escape(text));
            format!(
                "<a href=\"https://ads.example.net/vb?banner={size}\" rel=\"nofollow\">{text}</a>"
            )
        });
        let mut crumbs = format!(r#"<a href="{portal}" accesskey="1">{forum}</a>"#);
        for (index, (route, name)) in chrome.breadcrumbs.iter().enumerate() {
            if index == 0 {
                crumbs.clear();
            }
            let separator = if index == 0 { "" } else { " &gt; " };
            write!(
                crumbs,
                r#"{separator}<a href="{}">{}</a>"#,
                self.href(route),
                escape(name)
            )?;
        }
        let mut menu = String::new();
        let menu_entries = [
            (&navigation.members, "Members List"),
            (&navigation.calendar, "Calendar"),
            (&navigation.search, "New Posts"),
        ];
        for (route, text) in menu_entries {
            let link = self.anchor(route.as_ref(), "", text);
            if !link.is_empty() {
                write!(menu, r#"<td class="vbmenu_control">{link}</td>"#)?;
            }
        }
        let last_visit = either(chrome.last_visit, |instant| {
            format!("<br />Last visited: {}", date(self.context, instant))
        });
        write!(
            self.html,
            r##"<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd">
<html xmlns="http://www.w3.org/1999/xhtml" dir="ltr" lang="en">
<head>
<meta http-equiv="Content-Type" content="text/html; charset={charset}" />
<meta name="generator" content="vBulletin 3.8.11" />
<title>{title}</title>
</head>
<body>
<a name="top"></a>
<table border="0" width="100%" cellpadding="0" cellspacing="0" align="center"><tr>
<td align="left"><a href="{portal}"><img src="images/misc/vbulletin3_logo_white.gif" alt="{forum}" /></a></td>
<td align="right" id="header_right_cell">{advertisement}</td></tr></table>
<div align="center"><div class="page" style="width:100%; text-align:left">
<table {TBORDER}><tr><td class="alt1" width="100%">
<div class="navbar"><a href="#top" onclick="history.back(1); return false;">Go Back</a> {crumbs}</div>
<div class="navbar" style="font-size:10pt"><strong>{label}</strong></div></td>
<td class="alt2" nowrap="nowrap"><div class="smallfont"><strong>Welcome, Guest.</strong>{last_visit}</div></td>
</tr></table>
<div class="tborder" style="padding:1px; border-top-width:0px"><table cellpadding="0" cellspacing="0" border="0" width="100%"><tr align="center">
<td class="vbmenu_control"><a href="{portal}">Home</a></td>{menu}<td class="vbmenu_control"><a href="{login}">Log in</a></td>
</tr></table></div>
<br />
"##
        )
    }

    fn footer(&mut self, chrome: &Chrome) -> fmt::Result {
        let stats = &chrome.footer;
        let forum = escape(&chrome.forum_name);
        let (threads, posts) = (grouped(stats.threads), grouped(stats.posts));
        let members = grouped(stats.members);
        let newest = either(stats.newest_member.as_ref(), |member| {
            format!(
                "<br />Welcome to our newest member, {}",
                self.user(member, "")
            )
        });
        let zone = zone_label(self.context.profile().utc_offset_seconds);
        let clock = either(chrome.clock, |instant| {
            format!(
                " The time now is <span class=\"time\">{}</span>.",
                time(self.context, instant)
            )
        });
        let portal = self.href(&chrome.navigation.portal);
        write!(
            self.html,
            r##"<br />
<table {TBORDER}><tr><td class="thead">{forum} Statistics</td></tr>
<tr><td class="alt1"><div class="smallfont">Threads: {threads}, Posts: {posts}, Members: {members}{newest}</div></td></tr></table>
<br />
<div class="smallfont" align="center">All times are {zone}.{clock}</div>
</div></div>
<div class="smallfont" align="center"><a href="{portal}" accesskey="9">{forum}</a> - <a href="#top">Top</a><br />
Powered by vBulletin&reg; Version 3.8.11<br />Copyright &copy;2000 - 2025, vBulletin Solutions, Inc.</div>
</body>
</html>
"##
        )
    }

    /// A standard vBulletin message box ("Forum Message" over a panel).
    pub(super) fn message_box(&mut self, chrome: &Chrome, message: &str) -> fmt::Result {
        let forum = escape(&chrome.forum_name);
        write!(
            self.html,
            r#"<table class="tborder" cellpadding="6" cellspacing="1" border="0" width="70%" align="center">
<tr><td class="tcat">{forum} Message</td></tr>
<tr><td class="panelsurround" align="center"><div class="panel"><div align="left">
<div style="margin: 10px">{message}</div>
</div></div></td></tr>
</table>
<br />
"#
        )
    }

    /// The "Page 2 of 5" navigator: "« First", "<", numbers, ">", "Last »".
    fn pagenav(&mut self, pager: &Pager) -> fmt::Result {
        if pager.total <= 1 {
            return Ok(());
        }
        let (pages, count) = (&pager.pages, pager.pages.len());
        // vBulletin names the first and last pages "First" and "Last" when they stand apart from
        // the numbers around the current page.
        let first_apart = count > 1 && pages[1].0 > pages[0].0 + 1;
        let last_apart = count > 1 && pages[count - 1].0 > pages[count - 2].0 + 1;
        let cell = |address: &Address, attributes: &str, text: &str| {
            let href = self.href_address(address);
            format!(
                r#"<td class="alt1"><a class="smallfont" href="{href}"{attributes}>{text}</a></td>"#
            )
        };
        let mut cells = String::new();
        if first_apart {
            cells += &cell(&pages[0].1, "", "<strong>&laquo;</strong> First");
        }
        if let Some(previous) = &pager.previous {
            cells += &cell(previous, r#" rel="prev""#, "&lt;");
        }
        for (number, address) in &pages[usize::from(first_apart)..count - usize::from(last_apart)] {
            cells += &match *number == pager.current {
                true => format!(
                    r#"<td class="alt2"><span class="smallfont"><strong>{number}</strong></span></td>"#
                ),
                false => cell(address, "", &number.to_string()),
            };
        }
        if let Some(next) = &pager.next {
            cells += &cell(next, r#" rel="next""#, "&gt;");
        }
        if last_apart {
            cells += &cell(&pages[count - 1].1, "", "Last <strong>&raquo;</strong>");
        }
        let (current, total) = (pager.current, pager.total);
        write!(
            self.html,
            r#"<div class="pagenav" align="right"><table class="tborder" cellpadding="3" cellspacing="1" border="0"><tr>
<td class="vbmenu_control" style="font-weight:normal">Page {current} of {total}</td>{cells}
</tr></table></div>
"#
        )
    }

    /// The row above and below lists: a button on the left, the page navigator on the right.
    pub(super) fn controls(&mut self, button: &str, pager: &Pager) -> fmt::Result {
        write!(
            self.html,
            "<table cellpadding=\"0\" cellspacing=\"0\" border=\"0\" width=\"100%\"><tr valign=\"bottom\">\
             \n<td class=\"smallfont\">{button}</td>\n<td align=\"right\">"
        )?;
        self.pagenav(pager)?;
        self.html.push_str("</td>\n</tr></table>\n");
        Ok(())
    }

    /// The "Latest Threads" box some boards add above their forum lists.
    pub(super) fn latest(&mut self, latest: &[ThreadSummary]) -> fmt::Result {
        if latest.is_empty() {
            return Ok(());
        }
        writeln!(
            self.html,
            "<table {TBORDER}><tr><td class=\"tcat\" colspan=\"2\">Latest Threads</td></tr>"
        )?;
        for summary in latest {
            let (href, title) = (self.href(&summary.link), escape(&summary.title));
            let when = list_date(self.context, summary.last_post.created);
            let jump = self.jump(&summary.last_post);
            writeln!(
                self.html,
                "<tr><td class=\"alt1\" width=\"100%\"><a href=\"{href}\">{title}</a></td>\
                 <td class=\"alt2\"><span class=\"smallfont\">{when} {jump}</span></td></tr>"
            )?;
        }
        self.html.push_str("</table>\n<br />\n");
        Ok(())
    }
}
