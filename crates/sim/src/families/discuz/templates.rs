//! Discuz!'s page templates and the writer that fills them.

use std::fmt::{self, Write};

use super::order;
use crate::families::RenderContext;
use crate::html::escape;
use crate::route::{Address, Route};
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

const PAGE_TOP: &str = "<!DOCTYPE html PUBLIC \"-//W3C//DTD XHTML 1.0 Transitional//EN\">\n<html>\n\
<head>\n<meta http-equiv=\"Content-Type\" content=\"text/html; charset=gbk\" />\n<title>\
{title}{forum} - Powered by Discuz!</title>\n<meta name=\"generator\" content=\"Discuz! X3.4\" />\n\
</head>\n<body id=\"nv_forum\">\n<div id=\"toptb\" class=\"cl\"><div class=\"z\">{clock}</div>\
<div class=\"y\">{login}</div></div>\n<div id=\"hd\"><h2>{home}</h2>\n<ul id=\"nv\">{menu}</ul>\
</div>\n{advertisement}<div id=\"pt\" class=\"bm cl\"><div class=\"z\">{breadcrumbs}</div></div>\n\
<div id=\"ct\" class=\"wp cl\">\n";

const PAGE_BOTTOM: &str = "</div>\n<div id=\"ft\" class=\"wp cl\"><p class=\"chart\">主题: <em>\
{threads}</em> | 帖子: <em>{posts}</em> | 会员: <em>{members}</em>{newest}</p>\n<p>\
Powered by <a href=\"https://www.discuz.net\">Discuz!</a> <em>X3.4</em></p>\n</div>\n</body>\n\
</html>\n";

const PORTAL_CATEGORY: &str = "<div class=\"bm bmw flg cl\"><div class=\"bm_h cl\"><h2>{name}</h2>\
</div>\n<table cellspacing=\"0\" cellpadding=\"0\" class=\"fl_tb\">\n{boards}</table></div>\n";

const PORTAL_BOARD: &str = "<tr><td class=\"fl_icn\"></td><td><h2>{board}</h2></td>\
<td class=\"fl_i\"><span class=\"xi2\">{threads}</span><span class=\"xg1\"> / {posts}</span></td>\
<td class=\"fl_by\"><div>{last}</div></td></tr>\n";

const BOARD: &str = "<div class=\"bm bml pbn\"><h1 class=\"xs2\">{name}</h1></div>\n\
<div id=\"pgt\" class=\"bm bw0 pgs cl\">{pager}{new_thread}</div>\n\
<div id=\"threadlist\" class=\"tl bm bmw\"><div class=\"th\"><div class=\"tf\">{sorts}</div>\n\
<table cellspacing=\"0\" cellpadding=\"0\"><tr><th colspan=\"2\">标题</th><td class=\"by\">\
作者</td><td class=\"num\">回复/查看</td><td class=\"by\">最后发表</td></tr></table></div>\n\
<table summary=\"forum_{id}\" cellspacing=\"0\" cellpadding=\"0\" id=\"threadlisttableid\">\n\
{threads}</table></div>\n<div id=\"pgf\" class=\"bm bw0 pgs cl\">{pager}</div>\n{archive}{latest}";

const THREAD_ROW: &str = "<tbody id=\"{kind}_{id}\">\n<tr><td class=\"icn\"></td>\
<th class=\"common\">{title}{pages}</th>\n<td class=\"by\"><cite>{author}</cite><em><span>\
{started}</span></em></td>\n<td class=\"num\">{replies}<em>{views}</em></td>\n<td class=\"by\">\
<cite>{last_author}</cite><em>{last_time}</em></td></tr>\n</tbody>\n";

const THREAD: &str = "<div id=\"pgt\" class=\"pgs mbm cl\">{pager}{back}{reply}</div>\n\
<div id=\"postlist\" class=\"pl bm\">\n<table cellspacing=\"0\" cellpadding=\"0\"><tr>\
<td class=\"plc ptm pbn vwthd\"><div class=\"y\">{tools}</div><h1 class=\"ts\">\
<span id=\"thread_subject\">{title}</span></h1></td></tr></table>\n{posts}</div>\n\
<div class=\"pgs mtm mbm cl\">{pager}{back}</div>\n{archive}";

const POST: &str = "<div id=\"post_{id}\">\
<table id=\"pid{id}\" class=\"plhin\" cellspacing=\"0\" cellpadding=\"0\">\n<tr>\
<td class=\"pls\" rowspan=\"2\"><div class=\"pi\"><div class=\"authi\">{author}</div></div>\n\
<div class=\"tns\"><p>{posts}</p>帖子 <p>{credits}</p>积分</div>{joined}{message}</td>\n\
<td class=\"plc\"><div class=\"pi\"><strong>{floor}</strong><div class=\"pti\">\
<div class=\"authi\"><em id=\"authorposton{id}\">发表于 {date}</em></div></div></div>\n\
<div class=\"pct\"><table cellspacing=\"0\" cellpadding=\"0\"><tr>\
<td class=\"t_f\" id=\"postmessage_{id}\">\n{text}</td></tr></table></div>\n</td></tr>\n<tr>\
<td class=\"plc plm\">{signature}<div class=\"po\">{quote}</div></td></tr>\n</table></div>\n";

const WHOLE_THREAD_POST: &str = "<div class=\"pl\" id=\"pid{id}\"><p><strong>\
{author}</strong> 发表于 {date}</p>\n<div class=\"t_f\">{text}</div></div>\n<hr class=\"l\" />\n";

const PROFILE: &str = "<div id=\"uhd\"><h2 class=\"mt\">{name} <span class=\"xw0\">\
(UID: {id})</span></h2>{message}</div>\n<ul class=\"pf_l\"><li><em>帖子数</em> {posts}</li><li><em>\
积分</em> {credits}</li><li><em>注册时间</em> {joined}</li>{last_visit}</ul>\n<div class=\"bm\">\
<h3>最近主题</h3><ul class=\"xl\">\n{threads}</ul></div>\n";

const LOGIN: &str = "<div class=\"nfl\"><div id=\"messagetext\" class=\"alert_info\"><p>\
{message}</p></div>\n<form method=\"post\" name=\"login\" id=\"loginform\" action=\"{action}\">\n\
<p><label>用户名: <input type=\"text\" name=\"username\" /></label></p>\n<p><label>\
密码: <input type=\"password\" name=\"password\" /></label></p>\n<p>\
<button type=\"submit\" name=\"loginsubmit\" value=\"true\">登录</button></p>\n</form></div>\n";

const NOT_FOUND: &str = "<div class=\"nfl\"><div id=\"messagetext\" class=\"alert_error\"><p>\
抱歉，指定的主题不存在或已被删除或正在被审核</p></div></div>\n";

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

    /// `<a href="…" class="…">label</a>`, without the class attribute when `class` is empty.
    /// `label` is markup: callers escape text themselves.
    fn link(&mut self, route: &Route, class: &str, label: &str) {
        self.link_address(Address::canonical(route.clone()), class, label);
    }

    fn link_address(&mut self, address: Address, class: &str, label: &str) {
        let href = self.context.href_address(address);
        let _ = match class {
            "" => write!(self, "<a href=\"{href}\">{label}</a>"),
            _ => write!(self, "<a href=\"{href}\" class=\"{class}\">{label}</a>"),
        };
    }

    /// A link when the view offers one (member-only actions and trap links may be left out).
    fn optional_link(&mut self, route: Option<&Route>, class: &str, label: &str) {
        if let Some(route) = route {
            self.link(route, class, label);
        }
    }

    /// A link labelled with escaped `text`, as a list item.
    fn item(&mut self, route: &Route, text: &str) {
        self.put("<li>");
        self.link(route, "", &escape(text));
        self.put("</li>\n");
    }

    fn number(&mut self, number: u32) {
        let _ = write!(self, "{number}");
    }

    fn user(&mut self, user: &UserCard, class: &str) {
        match &user.profile {
            Some(route) => self.link(route, class, &escape(&user.name)),
            None => self.text(&user.name),
        }
    }

    /// `2025-3-30 22:11`, with `:05` seconds when `seconds` is set.
    fn absolute(&mut self, instant: i64, seconds: bool) {
        let local = self.context.local(instant);
        let (year, month, day) = (local.year, local.month, local.day);
        let _ = write!(
            self,
            "{year}-{month}-{day} {:02}:{:02}",
            local.hour, local.minute
        );
        if seconds {
            let _ = write!(self, ":{:02}", local.second);
        }
    }

    fn date_only(&mut self, instant: i64) {
        let local = self.context.local(instant);
        let _ = write!(self, "{}-{}-{}", local.year, local.month, local.day);
    }

    /// A relative phrase in a span titled with the absolute time; the absolute time alone for
    /// instants more than six days back (or in the future).
    fn relative(&mut self, instant: i64) {
        let days = self.context.days_ago(instant);
        let seconds = self.context.now - instant;
        if !(0..7).contains(&days) || seconds < 0 {
            return self.absolute(instant, false);
        }
        self.put("<span title=\"");
        self.absolute(instant, true);
        self.put("\">");
        let local = self.context.local(instant);
        let (hour, minute) = (local.hour, local.minute);
        let _ = match days {
            0 if seconds == 0 => write!(self, "刚刚"),
            0 if seconds < 60 => write!(self, "{seconds}&nbsp;秒前"),
            0 if seconds < 3_600 => write!(self, "{}&nbsp;分钟前", seconds / 60),
            0 => write!(self, "{}&nbsp;小时前", seconds / 3_600),
            1 => write!(self, "昨天&nbsp;{hour:02}:{minute:02}"),
            2 => write!(self, "前天&nbsp;{hour:02}:{minute:02}"),
            _ => write!(self, "{days}&nbsp;天前"),
        };
        self.put("</span>");
    }

    /// A link whose label is the relative time of `instant`, as the engine links last replies.
    fn dated_link(&mut self, route: &Route, class: &str, instant: i64) {
        let start = self.html.len();
        self.relative(instant);
        let label = self.html.split_off(start);
        self.link(route, class, &label);
    }

    /// The credit score beside posts; the engine derives it from activity, and so does this.
    fn credits(user: &UserCard) -> u32 {
        user.posts * 2 + user.user % 7
    }

    fn pager(&mut self, pager: &Pager) {
        if pager.total <= 1 {
            return;
        }
        self.put("<div class=\"pg\">");
        if let Some(previous) = &pager.previous {
            self.link_address(previous.clone(), "prev", "&nbsp;&nbsp;");
        }
        let mut shown = 0;
        for (number, address) in &pager.pages {
            let number = *number;
            if number == pager.current {
                let _ = write!(self, "<strong>{number}</strong>");
            } else if number == pager.total && number > shown + 1 {
                self.link_address(address.clone(), "last", &format!("... {number}"));
            } else {
                self.link_address(address.clone(), "", &number.to_string());
            }
            shown = number;
        }
        let total = pager.total;
        let _ = write!(
            self,
            "<label><span title=\"共 {total} 页\"> / {total} 页</span></label>"
        );
        if let Some(next) = &pager.next {
            self.link_address(next.clone(), "nxt", "下一页");
        }
        self.put("</div>\n");
    }

    fn page(&mut self, page: &Page) {
        let chrome = &page.chrome;
        let navigation = &chrome.navigation;
        let title = match &page.body {
            Body::Portal(_) => "",
            Body::MemberList(_) => "会员列表",
            Body::Calendar(_) => "日历",
            Body::Search(_) => "最新发表",
            Body::Login(view) if view.reason == LoginReason::Requested => "登录",
            Body::Login(_) | Body::NotFound => "提示信息",
            _ => chrome.title.as_str(),
        };
        self.fill(PAGE_TOP, |out, field| match field {
            // The engine puts the page's own title before the forum name, except on the index.
            "title" if !title.is_empty() => out.text(&format!("{title} - ")),
            "forum" => out.text(&chrome.forum_name),
            "clock" => {
                if let Some(clock) = chrome.clock {
                    out.put("现在时间 ");
                    out.absolute(clock, false);
                }
                if let Some(last_visit) = chrome.last_visit {
                    out.put("<span class=\"pipe\">|</span>上次访问 ");
                    out.relative(last_visit);
                }
            }
            "login" => out.link(&navigation.login, "xi2", "登录"),
            "home" => out.link(&navigation.portal, "", &escape(&chrome.forum_name)),
            "menu" => {
                out.put("<li class=\"a\" id=\"mn_forum\">");
                out.link(&navigation.portal, "", "论坛");
                let menu = [
                    &navigation.search,
                    &navigation.members,
                    &navigation.calendar,
                ];
                for (route, label) in menu.into_iter().zip(["新帖", "会员", "日历"]) {
                    if let Some(route) = route {
                        out.put("</li><li>");
                        out.link(route, "", label);
                    }
                }
                out.put("</li>");
            }
            "advertisement" => {
                if let Some(advertisement) = chrome.advertisement {
                    let slot = advertisement.len();
                    let _ = write!(
                        out,
                        "<div class=\"a_h\"><a href=\"https://ads.example.net/c?aid={slot}\">"
                    );
                    out.text(advertisement);
                    out.put("</a></div>\n");
                }
            }
            "breadcrumbs" => {
                out.link(&navigation.portal, "nvhm", "首页");
                for (route, label) in &chrome.breadcrumbs {
                    out.put(" <em>&rsaquo;</em> ");
                    out.link(route, "", &escape(label));
                }
                if !chrome.breadcrumbs.is_empty() {
                    out.put(" <em>&rsaquo;</em> ");
                    out.text(title);
                }
            }
            _ => {}
        });
        self.body(&page.body);
        let footer = &chrome.footer;
        self.fill(PAGE_BOTTOM, |out, field| match field {
            "threads" => out.number(footer.threads),
            "posts" => out.number(footer.posts),
            "members" => out.number(footer.members),
            _ => {
                if let Some(member) = &footer.newest_member {
                    out.put(" | 欢迎新会员: <em>");
                    out.user(member, "xi2");
                    out.put("</em>");
                }
            }
        })
    }

    fn body(&mut self, body: &Body) {
        match body {
            Body::Portal(view) => {
                self.latest(&view.latest);
                for category in &view.categories {
                    self.fill(PORTAL_CATEGORY, |out, field| match field {
                        "name" => out.text(&category.name),
                        _ => category
                            .boards
                            .iter()
                            .for_each(|board| out.portal_board(board)),
                    });
                }
            }
            Body::Board(view) => self.board(view),
            Body::Thread(view) => self.thread(view),
            Body::SinglePost(view) => {
                self.put("<div id=\"postlist\" class=\"pl bm\"><h1 class=\"ts\">");
                self.link(&view.in_thread, "", &escape(&view.thread.1));
                self.put("</h1>\n");
                self.post(&view.post);
                self.put("</div>\n");
            }
            Body::Print(view) => self.whole_thread(view, "打印本页"),
            Body::ArchiveThread(view) => self.whole_thread(view, "查看完整版本"),
            Body::ArchiveBoard(view) => {
                self.put("<div id=\"content\"><h1>");
                self.text(&view.name);
                self.put("</h1>\n<ul>\n");
                for (route, title) in &view.threads {
                    self.item(route, title);
                }
                self.put("</ul></div>\n");
            }
            Body::Profile(view) => self.profile(view),
            Body::MemberList(view) => {
                self.put(
                    "<div class=\"bm\"><h1 class=\"mt\">会员列表</h1><ul class=\"buddy cl\">\n",
                );
                for member in &view.members {
                    self.put("<li class=\"bbda cl\"><h4>");
                    self.user(member, "xi2");
                    let _ = write!(self, "</h4><p class=\"maxh\">帖子: {}", member.posts);
                    if let Some(joined) = member.joined {
                        self.put(" | 注册时间: ");
                        self.date_only(joined);
                    }
                    self.put("</p></li>\n");
                }
                self.put("</ul>\n");
                self.pager(&view.pager);
                self.put("</div>\n");
            }
            Body::Calendar(view) => {
                let (year, month) = (view.year, view.month);
                let _ = write!(self, "<div class=\"bm\"><h1>{year}年{month}月</h1>\n<p>");
                self.link(&view.previous, "xi2", "&laquo; 上个月");
                self.put(" ");
                self.link(&view.next, "xi2", "下个月 &raquo;");
                self.put("</p>\n<ul class=\"xl\">\n");
                for (day, route, title) in &view.events {
                    let _ = write!(self, "<li><em>{month}月{day}日</em> ");
                    self.link(route, "", &escape(title));
                    self.put("</li>\n");
                }
                self.put("</ul></div>\n");
            }
            Body::Search(view) => {
                // The engine's "new threads" guide lists results in the thread-list table.
                self.put("<div class=\"tl bm\"><h2>最新发表</h2>\n<table id=\"threadlist\">\n");
                for summary in &view.results {
                    self.thread_row(summary);
                }
                self.put("</table>\n<div class=\"pg\">");
                if let Some(previous) = &view.previous {
                    self.link(previous, "prev", "&nbsp;&nbsp;");
                }
                let _ = write!(self, "<strong>{}</strong>", view.page);
                self.link(&view.next, "nxt", "下一页");
                self.put("</div></div>\n");
            }
            Body::Login(view) => self.fill(LOGIN, |out, field| match field {
                "message" if view.reason == LoginReason::Requested => out.put("用户登录"),
                "message" => out.put("抱歉，您尚未登录，没有权限访问该版块"),
                _ => out.put(&out.context.href(&view.form_action)),
            }),
            Body::NotFound => {
                self.put(NOT_FOUND);
            }
        }
    }

    /// The "latest replies" block of the index, also shown on board pages.
    fn latest(&mut self, latest: &[ThreadSummary]) {
        if latest.is_empty() {
            return;
        }
        self.put("<div class=\"bm\" id=\"portal_block_latest\"><h2>最新回复</h2><ul>\n");
        for summary in latest {
            self.put("<li><em>");
            self.dated_link(&summary.last_post.link, "xg1", summary.last_post.created);
            self.put("</em> ");
            self.link(&summary.link, "", &escape(&summary.title));
            self.put("</li>\n");
        }
        self.put("</ul></div>\n");
    }

    fn portal_board(&mut self, board: &BoardSummary) {
        self.fill(PORTAL_BOARD, |out, field| match field {
            "board" => out.link(&board.link, "", &escape(&board.name)),
            "threads" => out.number(board.threads),
            "posts" => out.number(board.posts),
            _ => match &board.last_post {
                Some(last) => {
                    out.link(&last.link, "xi2", &escape(&last.thread_title));
                    out.put(" <cite>");
                    out.relative(last.created);
                    out.put(" ");
                    out.user(&last.author, "");
                    out.put("</cite>");
                }
                None => out.put("从未"),
            },
        });
    }

    fn board(&mut self, view: &BoardView) {
        let (board, page) = (view.board, 1);
        self.fill(BOARD, |out, field| match field {
            "name" => out.link(&Route::Board { board, page }, "", &escape(&view.name)),
            "pager" => out.pager(&view.pager),
            "new_thread" => out.optional_link(view.new_thread.as_ref(), "pn", "发新帖"),
            "sorts" if !view.sort_links.is_empty() => {
                let _ = write!(
                    out,
                    "排序: <strong class=\"xw1\">{}</strong>",
                    order(view.sort).1
                );
                for (sort, address) in &view.sort_links {
                    out.put(" | ");
                    out.link_address(address.clone(), "xi2", order(*sort).1);
                }
            }
            "id" => out.number(board),
            "threads" => {
                view.stickies
                    .iter()
                    .for_each(|summary| out.thread_row(summary));
                if !view.stickies.is_empty() {
                    out.put("<tbody id=\"separatorline\"><tr class=\"ts\"><th colspan=\"5\">");
                    out.put("版块主题</th></tr></tbody>\n");
                }
                view.threads
                    .iter()
                    .for_each(|summary| out.thread_row(summary));
            }
            "archive" => out.optional_link(view.archive.as_ref(), "xg1", "Archiver"),
            "latest" => out.latest(&view.latest),
            _ => {}
        })
    }

    /// One thread as a `<tbody>` of a thread list: title and page links, starter and start date,
    /// replies and views, last poster and last reply time.
    fn thread_row(&mut self, summary: &ThreadSummary) {
        self.fill(THREAD_ROW, |out, field| match field {
            "kind" => out.put(["normalthread", "stickthread"][usize::from(summary.sticky)]),
            "id" => out.number(summary.thread),
            "title" => out.link(&summary.link, "s xst", &escape(&summary.title)),
            "pages" if !summary.page_links.is_empty() => {
                out.put("<span class=\"tps\">&nbsp;...");
                let mut previous = 1;
                for (number, route) in &summary.page_links {
                    if *number > previous + 1 {
                        out.put("..");
                    }
                    previous = *number;
                    out.link(route, "", &number.to_string());
                }
                out.put("</span>");
            }
            "author" => out.user(&summary.author, ""),
            "started" => out.date_only(summary.created),
            "replies" => out.link(&summary.link, "xi2", &summary.replies.to_string()),
            "views" => out.number(summary.views),
            "last_author" => out.user(&summary.last_post.author, ""),
            "last_time" => out.dated_link(&summary.last_post.link, "", summary.last_post.created),
            _ => {}
        })
    }

    fn thread(&mut self, view: &ThreadView) {
        let (board, page) = (view.board.0, 1);
        let board = Route::Board { board, page };
        self.fill(THREAD, |out, field| match field {
            "pager" => out.pager(&view.pager),
            "back" => out.link(&board, "y pgb", "返回列表"),
            "reply" => out.optional_link(view.reply.as_ref(), "pn", "回复"),
            "tools" => {
                let tools = [&view.print, &view.previous_thread, &view.next_thread];
                for (route, label) in tools.into_iter().zip(["打印", "上一主题", "下一主题"])
                {
                    if let Some(route) = route {
                        out.link(route, "", label);
                        out.put("<span class=\"pipe\">|</span>");
                    }
                }
            }
            "title" => out.text(&view.title),
            "posts" => view.posts.iter().for_each(|post| out.post(post)),
            "archive" => out.optional_link(view.archive.as_ref(), "xg1", "Archiver"),
            _ => {}
        })
    }

    fn post(&mut self, post: &PostView) {
        self.fill(POST, |out, field| match field {
            "id" => out.number(post.post),
            "author" => out.user(&post.author, "xw1"),
            "posts" => out.number(post.author.posts),
            "credits" => out.number(Self::credits(&post.author)),
            "joined" => {
                if let Some(joined) = post.author.joined {
                    out.put("<dl class=\"pil cl\"><dt>注册时间</dt><dd>");
                    out.date_only(joined);
                    out.put("</dd></dl>");
                }
            }
            "message" => out.optional_link(post.message.as_ref(), "xi2", "发消息"),
            "floor" => {
                let floor = match post.number {
                    1 => "楼主".to_string(),
                    2 => "沙发".to_string(),
                    3 => "板凳".to_string(),
                    4 => "地板".to_string(),
                    number => format!("<em>{number}</em><sup>#</sup>"),
                };
                match &post.permalink {
                    Some(route) => out.link(route, "", &floor),
                    None => out.put(&floor),
                }
            }
            "date" => out.relative(post.created),
            "text" => out.paragraphs(post),
            "signature" => {
                if let Some(signature) = &post.signature {
                    out.put("<div class=\"sign\">");
                    out.text(signature);
                    out.put("</div>");
                }
            }
            "quote" => out.optional_link(post.quote.as_ref(), "fastre", "引用"),
            _ => {}
        })
    }

    /// The post text: paragraphs separated by `<br />`, nothing else inside the text element.
    fn paragraphs(&mut self, post: &PostView) {
        for (index, paragraph) in post.paragraphs.iter().enumerate() {
            if index > 0 {
                self.put("<br />\n");
            }
            self.text(paragraph);
        }
    }

    /// The printable view and the archiver's thread view: bare posts, absolute dates, a way back.
    fn whole_thread(&mut self, view: &WholeThreadView, back: &str) {
        self.put("<div id=\"content\"><h1>");
        self.text(&view.title);
        let _ = write!(self, "</h1>\n<p class=\"xg1\">{back}: ");
        self.link(&view.original, "", &escape(&view.title));
        self.put("</p>\n");
        for post in &view.posts {
            self.fill(WHOLE_THREAD_POST, |out, field| match field {
                "id" => out.number(post.post),
                "author" => out.user(&post.author, ""),
                "date" => out.absolute(post.created, false),
                _ => out.paragraphs(post),
            });
        }
        self.put("</div>\n");
    }

    fn profile(&mut self, view: &ProfileView) {
        self.fill(PROFILE, |out, field| match field {
            "name" => out.text(&view.user.name),
            "id" => out.number(view.user.user),
            "message" => out.optional_link(view.message.as_ref(), "xi2", "发送消息"),
            "posts" => out.number(view.user.posts),
            "credits" => out.number(Self::credits(&view.user)),
            "joined" => out.absolute(view.joined, false),
            "last_visit" => {
                if let Some(last_visit) = view.last_visit {
                    out.put("<li><em>最后访问</em> ");
                    out.absolute(last_visit, false);
                    out.put("</li>");
                }
            }
            _ => view
                .recent_threads
                .iter()
                .for_each(|(route, title)| out.item(route, title)),
        })
    }
}
