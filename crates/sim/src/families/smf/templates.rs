//! SMF's page frame: German dates and numbers, header, footer, page index and shared pieces.

use std::fmt::{self, Write};

use super::board_route;
use crate::dates::GERMAN_MONTHS;
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

/// A date as SMF prints it in German: "30. März 2025, 22:11:05", or relative for the last two
/// local days ("<strong>Heute</strong> um 22:11:05", "<strong>Gestern</strong> um 08:11:00").
pub(super) fn date(context: &RenderContext<'_>, instant: i64) -> String {
    match context.days_ago(instant) {
        0 => format!("<strong>Heute</strong> um {}", clock(context, instant)),
        1 => format!("<strong>Gestern</strong> um {}", clock(context, instant)),
        _ => absolute(context, instant),
    }
}

/// The time of day with seconds: "22:11:05".
fn clock(context: &RenderContext<'_>, instant: i64) -> String {
    let local = context.local(instant);
    format!("{:02}:{:02}:{:02}", local.hour, local.minute, local.second)
}

/// A date without relative words and without time, as join dates show: "30. März 2025".
pub(super) fn day(context: &RenderContext<'_>, instant: i64) -> String {
    let local = context.local(instant);
    let month = GERMAN_MONTHS[(local.month as usize).clamp(1, 12) - 1];
    format!("{:02}. {month} {}", local.day, local.year)
}

/// An absolute date and time, as the header clock always shows it: "31. März 2025, 10:01:00".
pub(super) fn absolute(context: &RenderContext<'_>, instant: i64) -> String {
    format!("{}, {}", day(context, instant), clock(context, instant))
}

/// A number with German thousands separators: "1.234".
pub(super) fn grouped(number: u32) -> String {
    let digits = number.to_string();
    let mut text = String::with_capacity(digits.len() + 4);
    for (index, digit) in digits.chars().enumerate() {
        if index > 0 && (digits.len() - index).is_multiple_of(3) {
            text.push('.');
        }
        text.push(digit);
    }
    text
}

/// SMF's default post-count groups, in German.
pub(super) fn member_group(posts: u32) -> &'static str {
    match posts {
        0..=49 => "Neuling",
        50..=99 => "Jr. Mitglied",
        100..=249 => "Mitglied",
        250..=499 => "Senior Mitglied",
        _ => "Hero Mitglied",
    }
}

/// The `<title>` and last link-tree entry of a page, in SMF's German wording.
fn page_label(page: &Page) -> String {
    let title = &page.chrome.title;
    match &page.body {
        Body::Portal(_) => format!("{} - Index", page.chrome.forum_name),
        Body::Print(_) => format!("{title} - Druckversion"),
        Body::Profile(_) => format!("Profil von {title}"),
        Body::MemberList(_) => "Mitgliederliste".to_string(),
        Body::Calendar(_) => "Kalender".to_string(),
        Body::Search(_) => "Neueste Beiträge".to_string(),
        Body::Login(_) => "Einloggen".to_string(),
        Body::NotFound => "Ein Fehler ist aufgetreten!".to_string(),
        _ => title.clone(),
    }
}

/// Escaped paragraphs separated by `<br />`, the way SMF turns newlines into markup.
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

    /// A member's name, linked to the profile when profiles are served.
    pub(super) fn user(&self, user: &UserCard) -> String {
        let name = escape(&user.name);
        match &user.profile {
            Some(route) => {
                let href = self.href(route);
                format!("<a href=\"{href}\" title=\"Profil von {name} ansehen\">{name}</a>")
            }
            None => name,
        }
    }

    /// A link to a latest post, jumping to its `#msg` anchor when it is a permalink.
    pub(super) fn last_post_href(&self, last: &LastPost) -> String {
        let href = self.href(&last.link);
        match last.link {
            Route::Post { post } => format!("{href}#msg{post}"),
            _ => href,
        }
    }

    fn page(&mut self, page: &Page) -> fmt::Result {
        self.header(page)?;
        match &page.body {
            Body::Portal(view) => self.portal(view)?,
            Body::Board(view) => self.board(view)?,
            Body::Thread(view) => self.thread(view)?,
            Body::SinglePost(view) => self.single_post(view)?,
            Body::Print(view) => self.print(view)?,
            Body::ArchiveThread(view) => self.wap_thread(view)?,
            Body::ArchiveBoard(view) => self.wap_board(view)?,
            Body::Profile(view) => self.profile(view)?,
            Body::MemberList(view) => self.member_list(view)?,
            Body::Calendar(view) => self.calendar(view)?,
            Body::Search(view) => self.recent(view)?,
            Body::Login(view) => self.login(view)?,
            Body::NotFound => self.fatal_error(&page.chrome)?,
        }
        self.footer(&page.chrome)
    }

    fn header(&mut self, page: &Page) -> fmt::Result {
        let chrome = &page.chrome;
        let navigation = &chrome.navigation;
        let (forum, label) = (escape(&chrome.forum_name), escape(&page_label(page)));
        let (portal, login) = (self.href(&navigation.portal), self.href(&navigation.login));
        let mut head = format!("<link rel=\"contents\" href=\"{portal}\" />\n");
        let canonical = match &page.body {
            Body::Thread(view) => Some(Route::Thread {
                thread: view.thread,
                page: view.pager.current,
            }),
            Body::Board(view) => Some(Route::Board {
                board: view.board,
                page: view.pager.current,
            }),
            _ => None,
        };
        if let Some(route) = canonical {
            writeln!(
                head,
                "<link rel=\"canonical\" href=\"{}\" />",
                self.href(&route)
            )?;
        }
        if let Body::Thread(view) = &page.body {
            let board = self.href(&board_route(view.board.0));
            writeln!(head, "<link rel=\"index\" href=\"{board}\" />")?;
            let neighbours = [("prev", &view.previous_thread), ("next", &view.next_thread)];
            for (rel, route) in neighbours {
                if let Some(route) = route {
                    writeln!(head, "<link rel=\"{rel}\" href=\"{}\" />", self.href(route))?;
                }
            }
        }
        let last_visit = either(chrome.last_visit, |instant| {
            format!("<li>Letzter Besuch: {}</li>", date(self.context, instant))
        });
        let clock = either(chrome.clock, |instant| {
            format!("<li>{}</li>", absolute(self.context, instant))
        });
        let advertisement = either(chrome.advertisement, |text| {
            let (size, text) = (text.len(), escape(text));
            format!("<a href=\"https://ads.example.net/smf?z={size}\" rel=\"nofollow\">{text}</a>")
        });
        let mut menu = String::new();
        let entries = [
            ("search", &navigation.search, "Neueste Beiträge"),
            ("calendar", &navigation.calendar, "Kalender"),
            ("mlist", &navigation.members, "Mitglieder"),
        ];
        for (id, route, text) in entries {
            if let Some(route) = route {
                let href = self.href(route);
                writeln!(
                    menu,
                    "<li id=\"button_{id}\"><a class=\"firstlevel\" href=\"{href}\"><span \
                     class=\"firstlevel\">{text}</span></a></li>"
                )?;
            }
        }
        let mut tree = String::new();
        for (route, name) in &chrome.breadcrumbs {
            let (href, name) = (self.href(route), escape(name));
            writeln!(
                tree,
                "<li><a href=\"{href}\"><span>{name}</span></a> &#187;</li>"
            )?;
        }
        write!(
            self.html,
            r#"<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd">
<html xmlns="http://www.w3.org/1999/xhtml" lang="de-DE">
<head>
<meta http-equiv="Content-Type" content="text/html; charset=UTF-8" />
<meta name="description" content="{label}" />
<title>{label}</title>
{head}</head>
<body>
<div id="wrapper" style="width: 90%">
<div id="header"><div class="frame">
<div id="top_section"><h1 class="forumtitle"><a href="{portal}">{forum}</a></h1>
<img id="smflogo" src="Themes/default/images/smflogo.png" alt="Simple Machines Forum" title="Simple Machines Forum" /></div>
<div id="upper_section" class="middletext">
<div class="user"><ul class="reset"><li class="greeting">Hallo <span>Gast</span></li>{last_visit}{clock}</ul>
<form id="guest_form" action="{login}" method="post" accept-charset="UTF-8">
<div class="info">Bitte <a href="{login}">einloggen</a> oder registrieren.</div>
<input type="text" name="user" size="10" class="input_text" /> <input type="password" name="passwrd" size="10" class="input_password" />
<input type="submit" value="Einloggen" class="button_submit" />
</form></div>
<div class="news normaltext"><h2>Neuigkeiten: </h2><p>{advertisement}</p></div>
</div>
<br class="clear" />
<div id="main_menu"><ul class="dropmenu" id="menu_nav">
<li id="button_home"><a class="active firstlevel" href="{portal}"><span class="last firstlevel">Übersicht</span></a></li>
{menu}<li id="button_login"><a class="firstlevel" href="{login}"><span class="firstlevel">Einloggen</span></a></li>
</ul></div>
<div class="navigate_section"><ul>
{tree}<li class="last"><span>{label}</span></li>
</ul></div>
</div></div>
<div id="content_section"><div class="frame"><div id="main_content_section">
"#
        )
    }

    fn footer(&mut self, chrome: &Chrome) -> fmt::Result {
        let stats = &chrome.footer;
        let (posts, threads) = (grouped(stats.posts), grouped(stats.threads));
        let members = grouped(stats.members);
        let newest = either(stats.newest_member.as_ref(), |member| {
            format!(" Neuestes Mitglied: <strong>{}</strong>", self.user(member))
        });
        write!(
            self.html,
            r#"</div></div></div>
<div id="footer_section"><div class="frame">
<div class="roundframe" id="info_center"><h4 class="titlebg">Forum-Statistiken</h4>
<p>{posts} Beiträge in {threads} Themen von {members} Mitgliedern.{newest}</p></div>
<ul class="reset"><li class="copyright"><span class="smalltext"><a href="https://www.simplemachines.org/" title="Simple Machines Forum" class="new_win">SMF 2.0.19</a>
| <a href="https://www.simplemachines.org/about/smf/license.php" class="new_win">SMF &copy; 2021</a>, <a href="https://www.simplemachines.org" class="new_win">Simple Machines</a></span></li></ul>
</div></div>
</div>
</body>
</html>
"#
        )
    }

    /// SMF's page index: "Seiten: « [1] 2 3 ... 9 »".
    fn page_index(&self, pager: &Pager) -> String {
        let mut text = String::from("Seiten: ");
        let link = |address: &Address, label: &str| {
            let href = self.href_address(address);
            format!("<a class=\"navPages\" href=\"{href}\">{label}</a> ")
        };
        if let Some(previous) = &pager.previous {
            text += &link(previous, "&#171;");
        }
        let mut shown = 0;
        for (number, address) in &pager.pages {
            if shown > 0 && *number > shown + 1 {
                text.push_str("<span style=\"font-weight: bold;\"> ... </span>");
            }
            text += &match *number == pager.current {
                true => format!("[<strong>{number}</strong>] "),
                false => link(address, &number.to_string()),
            };
            shown = *number;
        }
        if let Some(next) = &pager.next {
            text += &link(next, "&#187;");
        }
        text
    }

    /// The bar above and below lists: page index on the left, buttons on the right.
    pub(super) fn page_section(&mut self, pager: &Pager, buttons: &str, jump: &str) -> fmt::Result {
        let pages = self.page_index(pager);
        write!(
            self.html,
            r#"<div class="pagesection"><div class="pagelinks floatleft">{pages} {jump}</div>
<div class="buttonlist floatright"><ul>{buttons}</ul></div></div>
"#
        )
    }

    /// One `buttonlist` entry, present when its route is.
    pub(super) fn button(&self, route: Option<&Route>, class: &str, text: &str) -> String {
        let span = format!("<span class=\"last\">{text}</span>");
        let link = self.anchor(route, &format!(" class=\"button_strip_{class}\""), &span);
        either((!link.is_empty()).then_some(link), |link| {
            format!("<li>{link}</li>")
        })
    }

    /// The "Neueste Beiträge" box of the info center.
    pub(super) fn latest(&mut self, latest: &[ThreadSummary]) -> fmt::Result {
        if latest.is_empty() {
            return Ok(());
        }
        self.html.push_str(
            "<div class=\"roundframe\"><h4 class=\"titlebg\">Neueste Beiträge</h4>\n\
             <dl id=\"ic_recentposts\" class=\"middletext\">\n",
        );
        for summary in latest {
            let (href, title) = (self.href(&summary.link), escape(&summary.title));
            let last = &summary.last_post;
            let (jump, poster) = (self.last_post_href(last), self.user(&last.author));
            let when = date(self.context, last.created);
            writeln!(
                self.html,
                "<dt><strong><a href=\"{href}\">{title}</a></strong> von {poster} (<a \
                 href=\"{jump}\">Letzter Beitrag</a>)</dt><dd>{when}</dd>"
            )?;
        }
        self.html.push_str("</dl></div>\n");
        Ok(())
    }
}
