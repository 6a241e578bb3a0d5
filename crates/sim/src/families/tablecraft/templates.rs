//! Tablecraft's page templates and the writer that fills them.

use std::fmt::{self, Write};

use super::Kind;
use crate::families::RenderContext;
use crate::html::escape;
use crate::route::{Address, Route, SortOrder};
use crate::views::*;

/// Writes `page` as a whole HTML document.
pub(super) fn render(page: &Page, context: &RenderContext<'_>) -> String {
    let mut writer = Writer {
        html: String::with_capacity(32 * 1024),
        context,
    };
    writer.page(page);
    writer.html
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
pub(super) const TABLE: &str =
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
