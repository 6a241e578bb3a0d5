//! vBulletin's page bodies: forum home, thread lists, postbits, archive, print and member pages.

use std::fmt::{self, Write};

use super::templates::{
    Out, date, day, grouped, join_date, list_date, paragraphs, signature, user_title,
};
use super::{NO_PERMISSION, SHORT_TITLE, STICKY, TBORDER, board_route, thread_route};
use crate::dates;
use crate::families::common::either;
use crate::html::escape;
use crate::route::{Route, SortOrder};
use crate::views::{
    ArchiveBoardView, BoardView, CalendarView, Chrome, LastPost, LoginReason, LoginView,
    MemberListView, PortalView, PostView, ProfileView, SearchView, SinglePostView, ThreadSummary,
    ThreadView, WholeThreadView,
};

impl Out<'_> {
    pub(super) fn portal(&mut self, view: &PortalView) -> fmt::Result {
        self.latest(&view.latest)?;
        write!(
            self.html,
            r#"<table {TBORDER}>
<thead><tr align="center"><td class="thead">&nbsp;</td><td class="thead" width="100%" align="left">Forum</td>
<td class="thead" width="175">Last Post</td><td class="thead">Threads</td><td class="thead">Posts</td></tr></thead>
"#
        )?;
        for (index, category) in view.categories.iter().enumerate() {
            let (name, number) = (escape(&category.name), index + 1);
            write!(
                self.html,
                "<tbody><tr><td class=\"tcat\" colspan=\"5\">{name}</td></tr></tbody>\n\
                 <tbody id=\"collapseobj_forumbit_{number}\">\n"
            )?;
            for board in &category.boards {
                let (id, href, name) = (board.board, self.href(&board.link), escape(&board.name));
                let last = either(board.last_post.as_ref(), |last| self.last_post_cell(last));
                let (threads, posts) = (grouped(board.threads), grouped(board.posts));
                write!(
                    self.html,
                    r#"<tr align="center"><td class="alt1Active" colspan="2" id="f{id}" align="left">
<img src="images/statusicon/forum_old.gif" alt="" border="0" id="forum_statusicon_{id}" /> <a href="{href}"><strong>{name}</strong></a></td>
<td class="alt2" nowrap="nowrap"><div class="smallfont" align="left">{last}</div></td>
<td class="alt1">{threads}</td><td class="alt2">{posts}</td></tr>
"#
                )?;
            }
            self.html.push_str("</tbody>\n");
        }
        self.html.push_str("</table>\n");
        Ok(())
    }

    fn last_post_cell(&self, last: &LastPost) -> String {
        let mut short: String = last.thread_title.chars().take(SHORT_TITLE).collect();
        if short.len() < last.thread_title.len() {
            short.push_str("...");
        }
        let (title, short) = (escape(&last.thread_title), escape(&short));
        let thread = self.href(&thread_route(last.thread));
        let poster = self.user(&last.author, "");
        let when = list_date(self.context, last.created);
        let jump = self.jump(last);
        format!(
            "<div style=\"clear:both\"><a href=\"{thread}\" title=\"Go to first unread post in \
             thread '{title}'\"><strong>{short}</strong></a></div>\n<div>by {poster}</div>\n\
             <div align=\"right\">{when} {jump}</div>"
        )
    }

    /// One row of a thread list, vBulletin's `threadbit`.
    fn threadbit(&mut self, summary: &ThreadSummary) -> fmt::Result {
        let id = summary.thread;
        let icon = ["thread", "thread_hot"][usize::from(summary.replies >= 15)];
        let sticky = if summary.sticky { STICKY } else { "" };
        let (href, title) = (self.href(&summary.link), escape(&summary.title));
        let mut pages = String::new();
        let mut previous = 1;
        for (number, route) in &summary.page_links {
            let href = self.href(route);
            match *number > previous + 1 {
                true => write!(pages, r#" ... <a href="{href}">Last Page</a>"#)?,
                false => write!(pages, r#" <a href="{href}">{number}</a>"#)?,
            }
            previous = *number;
        }
        if !pages.is_empty() {
            pages = format!(
                " <span class=\"smallfont\" style=\"white-space:nowrap\">(<img class=\"inlineimg\" \
                 src=\"images/misc/multipage.gif\" alt=\"Multi-page thread\" border=\"0\" />{pages})</span>"
            );
        }
        let starter = self.user(&summary.author, "");
        let when = list_date(self.context, summary.last_post.created);
        let poster = self.user(&summary.last_post.author, "");
        let jump = self.jump(&summary.last_post);
        let (replies, views) = (grouped(summary.replies), grouped(summary.views));
        write!(
            self.html,
            r#"<tr><td class="alt1" id="td_threadstatusicon_{id}"><img src="images/statusicon/{icon}.gif" id="thread_statusicon_{id}" alt="" /></td>
<td class="alt2">&nbsp;</td>
<td class="alt1" id="td_threadtitle_{id}"><div>{sticky}<a href="{href}" id="thread_title_{id}">{title}</a>{pages}</div>
<div class="smallfont">{starter}</div></td>
<td class="alt2" title="Replies: {replies}, Views: {views}"><div class="smallfont" style="text-align:right; white-space:nowrap">
{when}<br />by {poster} {jump}</div></td>
<td class="alt1" align="center">{replies}</td><td class="alt2" align="center">{views}</td></tr>
"#
        )
    }

    /// A thread-list column header: a link to another order, or the name of the order shown.
    fn sort_header(&self, view: &BoardView, order: SortOrder, text: &str) -> String {
        let link = view.sort_links.iter().find(|(sort, _)| *sort == order);
        let Some((_, address)) = link else {
            return text.to_string();
        };
        let href = self.href_address(address);
        format!(r#"<a href="{href}" rel="nofollow">{text}</a>"#)
    }

    pub(super) fn board(&mut self, view: &BoardView) -> fmt::Result {
        self.latest(&view.latest)?;
        let button =
            r#"<img src="images/buttons/newthread.gif" alt="Post New Thread" border="0" />"#;
        let new_thread = self.anchor(view.new_thread.as_ref(), r#" rel="nofollow""#, button);
        self.controls(&new_thread, &view.pager)?;
        let (id, name) = (view.board, escape(&view.name));
        let archive = self.anchor(view.archive.as_ref(), "", "Archive");
        let title = self.sort_header(view, SortOrder::Title, "Thread");
        let starter = self.sort_header(view, SortOrder::Author, "Thread Starter");
        let last_post = self.sort_header(view, SortOrder::LastPost, "Last Post");
        let replies = self.sort_header(view, SortOrder::Replies, "Replies");
        write!(
            self.html,
            r#"<table {TBORDER}><tr><td class="tcat" width="100%">Threads in Forum<span class="normal"> : {name}</span></td>
<td class="vbmenu_control" nowrap="nowrap">{archive}</td></tr></table>
<table {TBORDER} id="threadslist">
<tbody><tr><td class="thead" colspan="2">&nbsp;</td><td class="thead" width="100%">{title} / {starter}</td>
<td class="thead" width="150" align="center" nowrap="nowrap">{last_post}</td>
<td class="thead" align="center" nowrap="nowrap">{replies}</td><td class="thead" align="center">Views</td></tr></tbody>
<tbody id="threadbits_forum_{id}">
"#
        )?;
        for summary in &view.stickies {
            self.threadbit(summary)?;
        }
        if !view.stickies.is_empty() {
            self.html
                .push_str("<tr><td class=\"thead\" colspan=\"6\">Normal Threads</td></tr>\n");
        }
        for summary in &view.threads {
            self.threadbit(summary)?;
        }
        self.html.push_str("</tbody>\n</table>\n");
        let mut options = String::new();
        for (sort, address) in &view.sort_links {
            let text = match sort {
                SortOrder::LastPost => "Last Post Time",
                SortOrder::Title => "Thread Title",
                SortOrder::Author => "Thread Starter",
                SortOrder::Replies => "Number of Replies",
                SortOrder::Created => "Thread Start Time",
            };
            let href = self.href_address(address);
            write!(options, r#" <a href="{href}" rel="nofollow">{text}</a>"#)?;
        }
        if !options.is_empty() {
            write!(
                self.html,
                "<table {TBORDER}><tr><td class=\"thead\">Display Options</td></tr>\n<tr><td \
                 class=\"alt1\"><div class=\"smallfont\">Sort Threads By:{options}</div></td></tr></table>\n"
            )?;
        }
        self.controls("", &view.pager)
    }

    /// One post in vBulletin's `postbit` table.
    fn postbit(&mut self, post: &PostView, title: &str) -> fmt::Result {
        let (id, number) = (post.post, post.number);
        let when = date(self.context, post.created);
        let count = match &post.permalink {
            Some(route) => format!(
                r#"<a href="{}" target="new" rel="nofollow" id="postcount{id}" name="{number}"><strong>{number}</strong></a>"#,
                self.href(route)
            ),
            None => format!("<strong>{number}</strong>"),
        };
        let name = escape(&post.author.name);
        let username = self.user(&post.author, r#" class="bigusername""#);
        let rank = user_title(post.author.posts);
        let joined = either(post.author.joined, |instant| {
            join_date(self.context, instant)
        });
        let posts = grouped(post.author.posts);
        let heading = either((number == 1).then(|| escape(title)), |title| {
            format!("<div class=\"smallfont\"><strong>{title}</strong></div><hr />\n")
        });
        let (message, signature) = (paragraphs(post), signature(post));
        let quote_button =
            r#"<img src="images/buttons/quote.gif" alt="Reply With Quote" border="0" />"#;
        let quote = self.anchor(post.quote.as_ref(), r#" rel="nofollow""#, quote_button);
        let pm_button = r#"<img src="images/buttons/sendpm.gif" alt="Send PM" border="0" />"#;
        let private_message = self.anchor(post.message.as_ref(), r#" rel="nofollow""#, pm_button);
        write!(
            self.html,
            r#"<div id="edit{id}" style="padding:0px 0px 6px 0px">
<table id="post{id}" class="tborder" cellpadding="6" cellspacing="0" border="0" width="100%" align="center">
<tr><td class="thead"><a name="post{id}"><img class="inlineimg" src="images/statusicon/post_old.gif" alt="Old" border="0" /></a> {when}</td>
<td class="thead" align="right">&nbsp;#{count}</td></tr>
<tr valign="top"><td class="alt2" width="175"><div id="postmenu_{id}">{username}</div><div class="smallfont">{rank}</div>
<div class="smallfont">&nbsp;<br />{joined}<div>Posts: {posts}</div></div></td>
<td class="alt1" id="td_post_{id}">{heading}<div id="post_message_{id}">{message}</div>
{signature}</td></tr>
<tr><td class="alt2"><img class="inlineimg" src="images/statusicon/user_offline.gif" alt="{name} is offline" border="0" /></td>
<td class="alt1" align="right">{private_message} {quote}</td></tr>
</table>
</div>
"#
        )
    }

    pub(super) fn thread(&mut self, view: &ThreadView) -> fmt::Result {
        let button = r#"<img src="images/buttons/reply.gif" alt="Reply" border="0" />"#;
        let reply = self.anchor(view.reply.as_ref(), r#" rel="nofollow""#, button);
        self.html
            .push_str("<a name=\"poststop\" id=\"poststop\"></a>\n");
        self.controls(&reply, &view.pager)?;
        let print = self.anchor(
            view.print.as_ref(),
            r#" rel="nofollow""#,
            "Show Printable Version",
        );
        let archive = self.anchor(view.archive.as_ref(), "", "Archive");
        write!(
            self.html,
            r#"<table {TBORDER}><tr><td class="tcat" width="100%">&nbsp;</td>
<td class="vbmenu_control" id="threadtools" nowrap="nowrap">{print}</td>
<td class="vbmenu_control" nowrap="nowrap">{archive}</td></tr></table>
<div id="posts">
"#
        )?;
        for post in &view.posts {
            self.postbit(post, &view.title)?;
        }
        self.html.push_str("<div id=\"lastpost\"></div></div>\n");
        self.controls(&reply, &view.pager)?;
        let nofollow = r#" rel="nofollow""#;
        let previous = self.anchor(view.previous_thread.as_ref(), nofollow, "Previous Thread");
        let next = self.anchor(view.next_thread.as_ref(), nofollow, "Next Thread");
        let both = !previous.is_empty() && !next.is_empty();
        let separator = if both { " | " } else { "" };
        let board = self.href(&board_route(view.board.0));
        let board_name = escape(&view.board.1);
        write!(
            self.html,
            r#"<br />
<div class="smallfont" align="center"><strong>&laquo;</strong> {previous}{separator}{next} <strong>&raquo;</strong></div>
<br />
<div class="smallfont" align="left">&laquo; <a href="{board}">{board_name}</a></div>
"#
        )
    }

    pub(super) fn single_post(&mut self, view: &SinglePostView) -> fmt::Result {
        let href = self.href(&view.in_thread);
        let (id, title) = (view.post.post, escape(&view.thread.1));
        write!(
            self.html,
            "<table {TBORDER}><tr><td class=\"tcat\">View Single Post: <a href=\"{href}#post{id}\">\
             {title}</a></td></tr></table>\n<br />\n"
        )?;
        self.postbit(&view.post, &view.thread.1)
    }

    /// The printable view (`printthread.php`) or the archive's plain list of posts.
    pub(super) fn whole_thread(&mut self, view: &WholeThreadView, archive: bool) -> fmt::Result {
        let (href, title, count) = (
            self.href(&view.original),
            escape(&view.title),
            view.posts.len(),
        );
        match archive {
            true => write!(
                self.html,
                "<div class=\"pagebody\">\n<div class=\"pda\"><a href=\"{href}\" rel=\"nofollow\">\
                 View Full Version : {title}</a></div>\n<hr />\n"
            )?,
            false => write!(
                self.html,
                "<table {TBORDER}><tr><td class=\"page\"><div class=\"largefont\"><a href=\"{href}\" \
                 accesskey=\"3\"><strong>{title}</strong></a></div>\n<div class=\"smallfont\"><a \
                 href=\"{href}\">Show {count} post(s) from this thread on one page</a></div>\
                 </td></tr></table>\n<br />\n"
            )?,
        }
        for post in &view.posts {
            let (author, when, id) = (
                self.user(&post.author, ""),
                date(self.context, post.created),
                post.post,
            );
            let (message, signature) = (paragraphs(post), signature(post));
            let nofollow = r#" rel="nofollow""#;
            let links = [
                self.anchor(post.permalink.as_ref(), nofollow, "Permalink"),
                self.anchor(post.quote.as_ref(), nofollow, "Quote"),
                self.anchor(post.message.as_ref(), nofollow, "Private Message"),
            ];
            let links: Vec<String> = links.into_iter().filter(|link| !link.is_empty()).collect();
            let links = links.join(" | ");
            match archive {
                true => write!(
                    self.html,
                    "<div class=\"post\"><div class=\"posttop\"><div class=\"username\">{author}</div>\
                     <div class=\"date\">{when}</div></div>\n<div class=\"posttext\">{message}</div>\n\
                     {signature}<div class=\"smallfont\">{links}</div></div><hr />\n"
                )?,
                false => write!(
                    self.html,
                    "<table {TBORDER}><tr><td class=\"page\"><div class=\"smallfont\" \
                     style=\"float:right\">{when}</div><div class=\"smallfont\"><strong>{author}\
                     </strong></div><hr />\n<div id=\"post_message_{id}\">{message}</div>\n\
                     {signature}<div class=\"smallfont\" align=\"right\">{links}</div></td></tr>\
                     </table>\n<br />\n"
                )?,
            }
        }
        if archive {
            self.html.push_str("</div>\n");
        }
        Ok(())
    }

    pub(super) fn archive_board(&mut self, view: &ArchiveBoardView) -> fmt::Result {
        let board = self.href(&board_route(view.board));
        let name = escape(&view.name);
        write!(
            self.html,
            "<div class=\"pagebody\">\n<div class=\"pda\"><a href=\"{board}\" rel=\"nofollow\">\
             View Full Version : {name}</a></div>\n<hr />\n<div id=\"content\">\n<ol>\n"
        )?;
        for (route, title) in &view.threads {
            let (href, title) = (self.href(route), escape(title));
            writeln!(self.html, "<li><a href=\"{href}\">{title}</a></li>")?;
        }
        self.html.push_str("</ol>\n</div>\n</div>\n");
        Ok(())
    }

    pub(super) fn member(&mut self, view: &ProfileView) -> fmt::Result {
        let (name, rank) = (escape(&view.user.name), user_title(view.user.posts));
        let message = self.anchor(view.message.as_ref(), "", "Send Private Message");
        let posts = grouped(view.user.posts);
        let last_activity = either(view.last_visit, |instant| {
            let when = list_date(self.context, instant);
            format!("<li><span class=\"shade\">Last Activity:</span> {when}</li>")
        });
        let joined = day(self.context, view.joined);
        let mut recent = String::new();
        for (route, title) in &view.recent_threads {
            let (href, title) = (self.href(route), escape(title));
            writeln!(recent, "<li><a href=\"{href}\">{title}</a></li>")?;
        }
        write!(
            self.html,
            r#"<div id="main_userinfo"><h1 id="username_box">{name}</h1><h2>{rank}</h2>
<div id="link_bar" class="tborder"><ul class="thead block_row"><li class="thead">{message}</li></ul></div></div>
<div class="tborder content_block" id="stats"><h4 class="thead block_title">Statistics</h4><div class="block_content">
<ul><li><span class="shade">Total Posts:</span> {posts}</li>{last_activity}
<li><span class="shade">Join Date:</span> {joined}</li></ul></div></div>
<div class="tborder content_block" id="recent_threads"><h4 class="thead block_title">Recent Threads</h4>
<ul class="block_content">
{recent}</ul></div>
"#
        )
    }

    pub(super) fn member_list(&mut self, view: &MemberListView) -> fmt::Result {
        self.controls("", &view.pager)?;
        write!(
            self.html,
            r#"<table {TBORDER} id="memberlist_table"><tr><td class="tcat" colspan="3">Members List</td></tr>
<tr align="center"><td class="thead" align="left">User Name</td><td class="thead">Join Date</td><td class="thead">Posts</td></tr>
"#
        )?;
        for member in &view.members {
            let (id, name, rank) = (member.user, self.user(member, ""), user_title(member.posts));
            let joined = either(member.joined, |joined| day(self.context, joined));
            let posts = grouped(member.posts);
            writeln!(
                self.html,
                "<tr align=\"center\"><td class=\"alt1Active\" align=\"left\" id=\"u{id}\">{name}<div \
                 class=\"smallfont\">{rank}</div></td><td class=\"alt2\">{joined}</td><td \
                 class=\"alt1\">{posts}</td></tr>"
            )?;
        }
        self.html.push_str("</table>\n");
        self.controls("", &view.pager)
    }

    pub(super) fn calendar(&mut self, view: &CalendarView) -> fmt::Result {
        let month_name = |month: u32| dates::ENGLISH_MONTHS[(month as usize).clamp(1, 12) - 1];
        let neighbour = |route: &Route| match *route {
            Route::Calendar { month, .. } => month_name(month),
            _ => "",
        };
        let this_month = month_name(view.month);
        let (previous, previous_name) = (self.href(&view.previous), neighbour(&view.previous));
        let (next, next_name) = (self.href(&view.next), neighbour(&view.next));
        let year = view.year;
        write!(
            self.html,
            r#"<table {TBORDER}><tr><td class="tcat" colspan="2"><span style="float:right"><a href="{next}">{next_name} &raquo;</a></span>
<a href="{previous}">&laquo; {previous_name}</a> &nbsp; {this_month} {year}</td></tr>
<tr><td class="thead">Day</td><td class="thead">Events</td></tr>
"#
        )?;
        for (day_of_month, route, title) in &view.events {
            let (href, title) = (self.href(route), escape(title));
            writeln!(
                self.html,
                "<tr><td class=\"alt1\">{day_of_month}</td><td class=\"alt2\"><a href=\"{href}\">\
                 {title}</a></td></tr>"
            )?;
        }
        self.html.push_str("</table>\n");
        Ok(())
    }

    pub(super) fn search(&mut self, view: &SearchView) -> fmt::Result {
        let previous = either(view.previous.as_ref(), |route| {
            let href = self.href(route);
            format!(
                r#"<td class="alt1"><a rel="prev" class="smallfont" href="{href}">&lt;</a></td>"#
            )
        });
        let (page, next) = (view.page, self.href(&view.next));
        write!(
            self.html,
            r#"<div class="pagenav" align="right"><table class="tborder" cellpadding="3" cellspacing="1" border="0"><tr>
<td class="vbmenu_control" style="font-weight:normal">Page {page}</td>{previous}
<td class="alt2"><span class="smallfont"><strong>{page}</strong></span></td>
<td class="alt1"><a rel="next" class="smallfont" href="{next}">&gt;</a></td></tr></table></div>
<table {TBORDER} id="threadslist"><tr><td class="tcat" colspan="6">Search Results</td></tr>
<tr><td class="thead" colspan="2">&nbsp;</td><td class="thead" width="100%">Thread / Thread Starter</td>
<td class="thead" width="150" align="center">Last Post</td><td class="thead" align="center">Replies</td><td class="thead" align="center">Views</td></tr>
"#
        )?;
        for summary in &view.results {
            self.threadbit(summary)?;
        }
        self.html.push_str("</table>\n");
        Ok(())
    }

    pub(super) fn login(&mut self, view: &LoginView, chrome: &Chrome) -> fmt::Result {
        if view.reason == LoginReason::MembersOnly {
            let reasons = format!(
                "{NO_PERMISSION} This could be due to one of several reasons:\n<ol>\n<li>You are \
                 not logged in. Fill in the form at the bottom of this page and try again.</li>\n\
                 <li>You may not have sufficient privileges to access this page.</li>\n<li>If you \
                 are trying to post, the administrator may have disabled your account, or it may \
                 be awaiting activation.</li>\n</ol>"
            );
            self.message_box(chrome, &reasons)?;
        }
        let action = self.href(&view.form_action);
        write!(
            self.html,
            r#"<form action="{action}" method="post">
<table class="tborder" cellpadding="6" cellspacing="1" border="0" width="70%" align="center">
<tr><td class="tcat">Log in</td></tr>
<tr><td class="panelsurround" align="center"><div class="panel"><fieldset class="fieldset"><legend>Log in</legend>
User Name:<br /><input type="text" class="bginput" name="vb_login_username" size="50" /><br />
Password:<br /><input type="password" class="bginput" name="vb_login_password" size="50" />
</fieldset></div>
<input type="submit" class="button" value="Log in" accesskey="s" /></td></tr>
</table>
</form>
"#
        )
    }
}
