//! SMF's page bodies: board index, message index, topics, print and WAP2 views, member pages.

use std::fmt::{self, Write};

use super::templates::{Out, date, day, grouped, member_group, paragraphs};
use super::{MEMBERS_ONLY, NOT_FOUND, RECENT_PER_PAGE, STICKY, board_route};
use crate::dates::GERMAN_MONTHS;
use crate::families::common::either;
use crate::html::escape;
use crate::route::{Route, SortOrder};
use crate::views::{
    ArchiveBoardView, BoardView, CalendarView, Chrome, LoginReason, LoginView, MemberListView,
    PortalView, PostView, ProfileView, SearchView, SinglePostView, ThreadSummary, ThreadView,
    WholeThreadView,
};

impl Out<'_> {
    pub(super) fn portal(&mut self, view: &PortalView) -> fmt::Result {
        self.html
            .push_str("<div id=\"boardindex_table\"><table class=\"table_list\">\n");
        for (index, category) in view.categories.iter().enumerate() {
            let (id, name) = (index + 1, escape(&category.name));
            write!(
                self.html,
                r#"<tbody class="header" id="category_{id}"><tr><td colspan="4"><div class="cat_bar"><h3 class="catbg"><a id="c{id}"></a>{name}</h3></div></td></tr></tbody>
<tbody class="content" id="category_{id}_boards">
"#
            )?;
            for board in &category.boards {
                let (id, href, name) = (board.board, self.href(&board.link), escape(&board.name));
                let (posts, threads) = (grouped(board.posts), grouped(board.threads));
                let last = either(board.last_post.as_ref(), |last| {
                    let (poster, jump) = (self.user(&last.author), self.last_post_href(last));
                    let (title, when) =
                        (escape(&last.thread_title), date(self.context, last.created));
                    format!(
                        "<strong>Letzter Beitrag</strong> von {poster}<br />in <a href=\"{jump}\" \
                         title=\"{title}\">{title}</a><br />am {when}"
                    )
                });
                write!(
                    self.html,
                    r#"<tr id="board_{id}" class="windowbg2">
<td class="icon windowbg"><a href="{href}"><img src="Themes/default/images/off.png" alt="Keine neuen Beiträge" /></a></td>
<td class="info"><a class="subject" href="{href}" name="b{id}">{name}</a></td>
<td class="stats windowbg"><p>{posts} Beiträge <br />{threads} Themen</p></td>
<td class="lastpost"><p>{last}</p></td>
</tr>
"#
                )?;
            }
            self.html.push_str("</tbody>\n");
        }
        self.html.push_str("</table></div>\n");
        self.latest(&view.latest)
    }

    /// One topic of a topic list (`MessageIndex`).
    fn topic_row(&mut self, summary: &ThreadSummary) -> fmt::Result {
        let history = self.context.history;
        let first = history
            .thread_posts(summary.thread)
            .first()
            .copied()
            .unwrap_or(0);
        let (href, title) = (self.href(&summary.link), escape(&summary.title));
        let (class, sticky) = match summary.sticky {
            true => ("stickybg", STICKY),
            false => ("windowbg", ""),
        };
        let starter = self.user(&summary.author);
        let mut pages = String::new();
        if !summary.page_links.is_empty() {
            write!(
                pages,
                "<small id=\"pages{first}\">&#171; <a class=\"navPages\" href=\"{href}\">1</a> "
            )?;
            let mut shown = 1;
            for (number, route) in &summary.page_links {
                if *number > shown + 1 {
                    pages.push_str("<span style=\"font-weight: bold;\"> ... </span>");
                }
                write!(
                    pages,
                    "<a class=\"navPages\" href=\"{}\">{number}</a> ",
                    self.href(route)
                )?;
                shown = *number;
            }
            pages.push_str("&#187;</small>");
        }
        let (replies, views) = (grouped(summary.replies), grouped(summary.views));
        let last = &summary.last_post;
        let (jump, poster) = (self.last_post_href(last), self.user(&last.author));
        let when = date(self.context, last.created);
        write!(
            self.html,
            r#"<tr>
<td class="icon1 {class}"><img src="Themes/default/images/topic/normal_post.gif" alt="" /></td>
<td class="icon2 {class}"><img src="Themes/default/images/post/xx.gif" alt="" /></td>
<td class="subject {class}2"><div>{sticky}<span id="msg_{first}"><a href="{href}">{title}</a></span>
<p>Gestartet von {starter} {pages}</p></div></td>
<td class="stats {class}">{replies} Antworten<br />{views} Aufrufe</td>
<td class="lastpost {class}2"><a href="{jump}"><img src="Themes/default/images/icons/last_post.gif" alt="Letzter Beitrag" title="Letzter Beitrag" /></a>
{when}<br />von {poster}</td>
</tr>
"#
        )
    }

    /// A column header: a link to another order, or the name of the order shown.
    fn sort_header(&self, view: &BoardView, order: SortOrder, text: &str) -> String {
        let link = view.sort_links.iter().find(|(sort, _)| *sort == order);
        let Some((_, address)) = link else {
            return text.to_string();
        };
        format!("<a href=\"{}\">{text}</a>", self.href_address(address))
    }

    pub(super) fn board(&mut self, view: &BoardView) -> fmt::Result {
        let new_topic = self.button(view.new_thread.as_ref(), "new_topic", "Neues Thema");
        let down = "<a href=\"#bot\"><strong>Nach unten</strong></a>";
        self.html.push_str("<a id=\"top\"></a>\n");
        self.page_section(&view.pager, &new_topic, down)?;
        let name = escape(&view.name);
        let subject = self.sort_header(view, SortOrder::Title, "Betreff");
        let starter = self.sort_header(view, SortOrder::Author, "Gestartet von");
        let replies = self.sort_header(view, SortOrder::Replies, "Antworten");
        let last_post = self.sort_header(view, SortOrder::LastPost, "Letzter Beitrag");
        write!(
            self.html,
            r#"<div class="tborder topic_table" id="messageindex">
<div class="cat_bar"><h3 class="catbg">{name}</h3></div>
<table class="table_grid" cellspacing="0">
<thead><tr class="catbg"><th scope="col" class="first_th" width="8%" colspan="2">&nbsp;</th>
<th scope="col" class="lefttext">{subject} / {starter}</th>
<th scope="col" width="14%">{replies} / Aufrufe</th>
<th scope="col" class="lefttext last_th" width="22%">{last_post}</th></tr></thead>
<tbody>
"#
        )?;
        for summary in view.stickies.iter().chain(&view.threads) {
            self.topic_row(summary)?;
        }
        self.html
            .push_str("</tbody>\n</table>\n</div>\n<a id=\"bot\"></a>\n");
        let up = "<a href=\"#top\"><strong>Nach oben</strong></a>";
        self.page_section(&view.pager, &new_topic, up)?;
        let mut orders = String::new();
        for (sort, address) in &view.sort_links {
            let text = match sort {
                SortOrder::LastPost => "Letzter Beitrag",
                SortOrder::Title => "Betreff",
                SortOrder::Author => "Gestartet von",
                SortOrder::Replies => "Antworten",
                SortOrder::Created => "Erster Beitrag",
            };
            write!(
                orders,
                " <a href=\"{}\">{text}</a>",
                self.href_address(address)
            )?;
        }
        let wap = self.anchor(view.archive.as_ref(), " id=\"button_wap2\"", "WAP2");
        writeln!(
            self.html,
            "<div class=\"flow_auto\"><div class=\"floatleft smalltext\">Sortieren nach:{orders}\
             </div><div class=\"floatright smalltext\">{wap}</div></div>"
        )?;
        self.latest(&view.latest)
    }

    /// One message of a topic (`Display`), in SMF 2's `post_wrapper` layout.
    fn message(&mut self, post: &PostView, title: &str, alternate: bool) -> fmt::Result {
        let id = post.post;
        let class = if alternate { "windowbg2" } else { "windowbg" };
        let author = &post.author;
        let name = self.user(author);
        let (group, posts) = (member_group(author.posts), grouped(author.posts));
        let joined = either(author.joined, |instant| {
            format!(
                "<li class=\"joined\">Registriert: {}</li>",
                day(self.context, instant)
            )
        });
        let pm_icon = "<img src=\"Themes/default/images/im_off.gif\" alt=\"Private Nachricht\" />";
        let pm = self.anchor(
            post.message.as_ref(),
            " title=\"Private Nachricht\"",
            pm_icon,
        );
        let subject = match post.number {
            1 => escape(title),
            _ => format!("Re: {}", escape(title)),
        };
        let subject = match &post.permalink {
            Some(route) => {
                let href = self.href(route);
                format!("<a href=\"{href}#msg{id}\" rel=\"nofollow\">{subject}</a>")
            }
            None => subject,
        };
        let counter = either((post.number > 1).then_some(post.number - 1), |counter| {
            format!("Antwort #{counter} ")
        });
        let when = date(self.context, post.created);
        let quote = self.anchor(post.quote.as_ref(), "", "Zitieren");
        let text = paragraphs(post);
        let signature = either(post.signature.as_ref(), |signature| {
            format!(
                "<div class=\"signature\" id=\"msg_{id}_signature\">{}</div>",
                escape(signature)
            )
        });
        write!(
            self.html,
            r#"<div class="{class}" id="msg{id}">
<span class="topslice"><span></span></span>
<div class="post_wrapper">
<div class="poster"><h4>{name}</h4>
<ul class="reset smalltext" id="msg_{id}_extra_info"><li class="membergroup">{group}</li>
<li class="postcount">Beiträge: {posts}</li>{joined}<li class="profile"><ul><li>{pm}</li></ul></li></ul></div>
<div class="postarea"><div class="flow_hidden"><div class="keyinfo">
<div class="messageicon"><img src="Themes/default/images/post/xx.gif" alt="" /></div>
<h5 id="subject_{id}">{subject}</h5>
<div class="smalltext">&#171; <strong>{counter}am:</strong> {when} &#187;</div>
</div>
<ul class="reset smalltext quickbuttons"><li class="quote_button">{quote}</li></ul></div>
<div class="post"><div class="inner" id="msg_{id}">{text}</div></div></div>
<div class="moderatorbar"><div class="smalltext reportlinks">Gespeichert</div>{signature}</div>
</div>
<span class="botslice"><span></span></span>
</div>
<hr class="post_separator" />
"#
        )
    }

    pub(super) fn thread(&mut self, view: &ThreadView) -> fmt::Result {
        let previous = either(view.previous_thread.as_ref(), |route| {
            format!(
                "<a href=\"{}#new\">&#171; Vorheriges Thema</a>",
                self.href(route)
            )
        });
        let next = either(view.next_thread.as_ref(), |route| {
            format!(
                "<a href=\"{}#new\">Nächstes Thema &#187;</a>",
                self.href(route)
            )
        });
        let reply = self.button(view.reply.as_ref(), "reply", "Antworten");
        let print = self.button(view.print.as_ref(), "print", "Drucken");
        let buttons = format!("{reply}{print}");
        let title = escape(&view.title);
        writeln!(
            self.html,
            "<a id=\"top\"></a>\n<div class=\"nextlinks\">{previous} {next}</div>"
        )?;
        let down = "<a href=\"#lastPost\"><strong>Nach unten</strong></a>";
        self.page_section(&view.pager, &buttons, down)?;
        write!(
            self.html,
            r#"<div id="forumposts">
<div class="cat_bar"><h3 class="catbg"><img src="Themes/default/images/topic/normal_post.gif" align="bottom" alt="" />
<span id="author">Autor</span> Thema: {title}</h3></div>
"#
        )?;
        for (index, post) in view.posts.iter().enumerate() {
            self.message(post, &view.title, index % 2 == 1)?;
        }
        self.html.push_str("<a id=\"lastPost\"></a>\n</div>\n");
        let up = "<a href=\"#top\"><strong>Nach oben</strong></a>";
        self.page_section(&view.pager, &buttons, up)?;
        let (board, board_name) = (self.href(&board_route(view.board.0)), escape(&view.board.1));
        let wap = self.anchor(view.archive.as_ref(), " id=\"button_wap2\"", "WAP2");
        writeln!(
            self.html,
            "<div class=\"nextlinks_bottom\">{previous} {next}</div>\n<div class=\"smalltext\">\
             Zurück zu <a href=\"{board}\">{board_name}</a> | {wap}</div>"
        )
    }

    pub(super) fn single_post(&mut self, view: &SinglePostView) -> fmt::Result {
        let (href, title) = (self.href(&view.in_thread), escape(&view.thread.1));
        writeln!(
            self.html,
            "<div class=\"cat_bar\"><h3 class=\"catbg\"><a href=\"{href}#msg{}\">{title}</a></h3></div>",
            view.post.post
        )?;
        self.message(&view.post, &view.thread.1, false)
    }

    /// The links of a message on the plain print and WAP2 pages.
    fn plain_links(&self, post: &PostView) -> String {
        let links = [
            self.anchor(post.permalink.as_ref(), "", &format!("#{}", post.number)),
            self.anchor(post.quote.as_ref(), "", "Zitieren"),
            self.anchor(post.message.as_ref(), "", "Private Nachricht"),
        ];
        let present: Vec<String> = links.into_iter().filter(|link| !link.is_empty()).collect();
        present.join(" | ")
    }

    pub(super) fn print(&mut self, view: &WholeThreadView) -> fmt::Result {
        let (href, title) = (self.href(&view.original), escape(&view.title));
        writeln!(
            self.html,
            "<h2 id=\"linktree\"><a href=\"{href}\">{title}</a></h2>\n<div id=\"posts\">"
        )?;
        for post in &view.posts {
            let (author, when, links) = (
                self.user(&post.author),
                date(self.context, post.created),
                self.plain_links(post),
            );
            let subject = if post.number == 1 {
                title.clone()
            } else {
                format!("Re: {title}")
            };
            let text = paragraphs(post);
            let signature = either(post.signature.as_ref(), |text| {
                format!("<div class=\"signature\">{}</div>", escape(text))
            });
            write!(
                self.html,
                r#"<div class="postheader">Titel: {subject}<br />Beitrag von: <strong>{author}</strong> am {when} <span class="smalltext">{links}</span></div>
<div class="postbody">{text}</div>
{signature}
"#
            )?;
        }
        self.html.push_str("</div>\n");
        Ok(())
    }

    pub(super) fn wap_thread(&mut self, view: &WholeThreadView) -> fmt::Result {
        let (href, title) = (self.href(&view.original), escape(&view.title));
        writeln!(self.html, "<p class=\"catbg\">{title}</p>")?;
        for post in &view.posts {
            let (author, when) = (self.user(&post.author), date(self.context, post.created));
            let (text, links) = (paragraphs(post), self.plain_links(post));
            let signature = either(post.signature.as_ref(), |text| {
                format!("<p class=\"signature\">{}</p>", escape(text))
            });
            writeln!(
                self.html,
                "<p class=\"titlebg\"><strong>{author}</strong>: {when} {links}</p>\n\
                 <p class=\"windowbg\">{text}</p>{signature}"
            )?;
        }
        writeln!(
            self.html,
            "<p class=\"windowbg\">[<a href=\"{href}\">Vollversion</a>]</p>"
        )
    }

    pub(super) fn wap_board(&mut self, view: &ArchiveBoardView) -> fmt::Result {
        let (href, name) = (self.href(&board_route(view.board)), escape(&view.name));
        writeln!(self.html, "<p class=\"catbg\">{name}</p>")?;
        for (index, (route, title)) in view.threads.iter().enumerate() {
            let (topic, title) = (self.href(route), escape(title));
            let number = index + 1;
            writeln!(
                self.html,
                "<p class=\"windowbg\">{number}. <a href=\"{topic}\">{title}</a></p>"
            )?;
        }
        writeln!(
            self.html,
            "<p class=\"windowbg\">[<a href=\"{href}\">Vollversion</a>]</p>"
        )
    }

    pub(super) fn profile(&mut self, view: &ProfileView) -> fmt::Result {
        let (name, group) = (escape(&view.user.name), member_group(view.user.posts));
        let message = self.anchor(view.message.as_ref(), "", "Private Nachricht senden");
        let (posts, joined) = (grouped(view.user.posts), date(self.context, view.joined));
        let last_visit = either(view.last_visit, |instant| {
            format!(
                "<dt>Letzte Aktivität: </dt><dd>{}</dd>",
                date(self.context, instant)
            )
        });
        let mut recent = String::new();
        for (route, title) in &view.recent_threads {
            writeln!(
                recent,
                "<li><a href=\"{}\">{}</a></li>",
                self.href(route),
                escape(title)
            )?;
        }
        write!(
            self.html,
            r#"<div id="profileview" class="flow_auto">
<div class="cat_bar"><h3 class="catbg">Zusammenfassung</h3></div>
<div id="basicinfo"><div class="windowbg"><div class="content flow_auto">
<div class="username"><h4>{name} <span class="position">{group}</span></h4></div>
<ul class="reset"><li>{message}</li></ul></div></div></div>
<div id="detailedinfo"><div class="windowbg2"><div class="content"><dl>
<dt>Beiträge: </dt><dd>{posts}</dd><dt>Registriert: </dt><dd>{joined}</dd>{last_visit}
</dl></div></div></div>
<div class="cat_bar"><h3 class="catbg">Neueste Themen</h3></div>
<ul class="reset">
{recent}</ul>
</div>
"#
        )
    }

    pub(super) fn member_list(&mut self, view: &MemberListView) -> fmt::Result {
        self.html.push_str(
            "<div class=\"main_section\" id=\"memberlist\">\n<div class=\"cat_bar\"><h4 \
             class=\"catbg\">Mitgliederliste</h4></div>\n",
        );
        self.page_section(&view.pager, "", "")?;
        self.html.push_str(
            "<table class=\"table_grid\" cellspacing=\"0\" width=\"100%\">\n<thead><tr \
             class=\"catbg\"><th scope=\"col\" class=\"first_th\">Name</th><th \
             scope=\"col\">Registriert</th><th scope=\"col\" class=\"last_th\">Beiträge</th></tr>\
             </thead>\n<tbody>\n",
        );
        for member in &view.members {
            let (name, posts) = (self.user(member), grouped(member.posts));
            let joined = either(member.joined, |instant| day(self.context, instant));
            writeln!(
                self.html,
                "<tr><td class=\"windowbg2\">{name}</td><td class=\"windowbg\">{joined}</td><td \
                 class=\"windowbg2\">{posts}</td></tr>"
            )?;
        }
        self.html.push_str("</tbody>\n</table>\n");
        self.page_section(&view.pager, "", "")?;
        self.html.push_str("</div>\n");
        Ok(())
    }

    pub(super) fn calendar(&mut self, view: &CalendarView) -> fmt::Result {
        let month_name = |month: u32| GERMAN_MONTHS[(month as usize).clamp(1, 12) - 1];
        let neighbour = |route: &Route| match *route {
            Route::Calendar { month, year } => format!("{} {year}", month_name(month)),
            _ => String::new(),
        };
        let (previous, previous_name) = (self.href(&view.previous), neighbour(&view.previous));
        let (next, next_name) = (self.href(&view.next), neighbour(&view.next));
        let (this_month, year) = (month_name(view.month), view.year);
        write!(
            self.html,
            r#"<div id="calendar"><div id="main_grid"><div class="cat_bar"><h3 class="catbg centertext largetext">
<span class="floatleft"><a href="{previous}">&#171; {previous_name}</a></span><span class="floatright"><a href="{next}">{next_name} &#187;</a></span>
{this_month} {year}</h3></div>
<table class="table_grid calendar_table" cellspacing="1">
"#
        )?;
        for (day_of_month, route, title) in &view.events {
            let (href, title) = (self.href(route), escape(title));
            writeln!(
                self.html,
                "<tr><td class=\"windowbg days\">{day_of_month}</td><td class=\"windowbg2\">\
                 Ereignisse: <a href=\"{href}\">{title}</a></td></tr>"
            )?;
        }
        self.html.push_str("</table></div></div>\n");
        Ok(())
    }

    pub(super) fn recent(&mut self, view: &SearchView) -> fmt::Result {
        let previous = either(view.previous.as_ref(), |route| {
            format!(
                "<a class=\"navPages\" href=\"{}\">&#171;</a> ",
                self.href(route)
            )
        });
        let (page, next) = (view.page, self.href(&view.next));
        write!(
            self.html,
            r#"<div id="recent" class="main_section">
<div class="cat_bar"><h3 class="catbg">Neueste Beiträge</h3></div>
<div class="pagesection"><span>Seiten: {previous}[<strong>{page}</strong>] <a class="navPages" href="{next}">&#187;</a></span></div>
"#
        )?;
        let first = (page.saturating_sub(1) * RECENT_PER_PAGE) as usize;
        for (index, summary) in view.results.iter().enumerate() {
            let (href, title) = (self.href(&summary.link), escape(&summary.title));
            let last = &summary.last_post;
            let (jump, poster) = (self.last_post_href(last), self.user(&last.author));
            let (starter, when) = (self.user(&summary.author), date(self.context, last.created));
            let counter = first + index + 1;
            write!(
                self.html,
                r#"<div class="windowbg core_posts"><div class="content"><div class="counter">{counter}</div>
<div class="topic_details"><h5><strong><a href="{href}">{title}</a></strong></h5><span class="smalltext">&#171; <strong>am:</strong> {when} &#187;</span></div>
<div class="list_posts">Gestartet von {starter} | <a href="{jump}">Letzter Beitrag</a> von {poster}</div></div></div>
"#
            )?;
        }
        self.html.push_str("</div>\n");
        Ok(())
    }

    pub(super) fn login(&mut self, view: &LoginView) -> fmt::Result {
        let warning = match view.reason {
            LoginReason::MembersOnly => format!(
                "<div class=\"cat_bar\"><h3 class=\"catbg\">Warnung!</h3></div>\n<p class=\"information \
                 centertext\">{MEMBERS_ONLY}<br />Bitte loggen Sie sich unten ein.</p>\n"
            ),
            LoginReason::Requested => String::new(),
        };
        let action = self.href(&view.form_action);
        write!(
            self.html,
            r#"<form action="{action}" method="post" accept-charset="UTF-8" name="frmLogin" id="frmLogin">
<div class="tborder login">
{warning}<div class="cat_bar"><h3 class="catbg">Einloggen</h3></div>
<div class="roundframe"><dl>
<dt>Benutzername:</dt><dd><input type="text" name="user" size="20" class="input_text" /></dd>
<dt>Passwort:</dt><dd><input type="password" name="passwrd" size="20" class="input_password" /></dd>
</dl><p><input type="submit" value="Einloggen" class="button_submit" /></p></div>
</div>
</form>
"#
        )
    }

    pub(super) fn fatal_error(&mut self, chrome: &Chrome) -> fmt::Result {
        let portal = self.href(&chrome.navigation.portal);
        write!(
            self.html,
            r#"<div id="fatal_error">
<div class="cat_bar"><h3 class="catbg">Ein Fehler ist aufgetreten!</h3></div>
<div class="windowbg"><div class="padding">{NOT_FOUND}</div></div>
</div>
<div class="centertext"><a href="{portal}">Zurück</a></div>
"#
        )
    }
}
