//! Discuz! X3 (Chinese: each post a table whose author column spans the message and signature
//! rows, thread, post and credit counts above the user group, floor labels (楼主, 沙发, 板凳)
//! linking to each post, "发表于" dates, one of them recent and shown as "昨天" with the exact
//! time in `title`, a quote whose header names the quoted post's author and date, signatures in
//! a row of their own, a row of reply and report buttons, and the forum's zone in the footer).

use crate::check::{EnginePage, Wanted, check};
use crate::threads::CHINESE;

#[test]
fn discuz_x3_in_chinese() {
    // The last post is recent: Discuz! prints it as a relative day with the time in `title`.
    let shown = [
        ("发表于 2016-5-4 21:05", "2016-05-04T21:05"),
        ("发表于 2016-5-5 08:30", "2016-05-05T08:30"),
        ("发表于 2016-5-5 19:45", "2016-05-05T19:45"),
        (
            "发表于 <span title=\"2025-4-1 10:02\">昨天&nbsp;10:02</span>",
            "2025-04-01T10:02",
        ),
    ];
    let floors = ["楼主", "沙发", "板凳", "地板"];
    let mut posts = String::new();
    let mut wanted = Vec::new();
    for (index, (message, (date, iso))) in CHINESE.messages.iter().zip(shown).enumerate() {
        let pid = 88_100 + index;
        let profile = format!("home.php?mod=space&amp;uid={}", message.user_id);
        let (quote_html, quote_text) = if index == 2 {
            (
                "<div class=\"quote\"><blockquote><font size=\"2\"><a href=\"forum.php?mod=redirect&amp;goto=findpost&amp;pid=88101&amp;ptid=905\" target=\"_blank\">\
                 <font color=\"#999999\">linux_fan 发表于 2016-5-5 08:30</font></a></font><br>不要用 read() 一次读完</blockquote></div><br>",
                "linux_fan 发表于 2016-5-5 08:30 不要用 read() 一次读完 ",
            )
        } else {
            ("", "")
        };
        let signature = if index == 0 {
            format!(
                "<tr><td class=\"plc plm\"><div class=\"sign\" style=\"max-height:100px;maxHeightIE:100px;\">{}</div></td></tr>",
                CHINESE.signature
            )
        } else {
            String::new()
        };
        posts.push_str(&format!(
            "<div id=\"post_{pid}\"><table id=\"pid{pid}\" class=\"plhin\" summary=\"pid{pid}\" cellspacing=\"0\" cellpadding=\"0\"><tr>\
             <td class=\"pls\" rowspan=\"2\"><div id=\"favatar{pid}\" class=\"pls favatar\"><div class=\"pi\"><div class=\"authi\">\
             <a href=\"{profile}\" target=\"_blank\" class=\"xw1\">{name}</a></div></div>\
             <div><div class=\"avatar\"><a href=\"{profile}\" class=\"avtm\" target=\"_blank\"><img src=\"uc_server/avatar.php?uid={id}&amp;size=middle\"></a></div></div>\
             <div class=\"tns xg2\"><table cellspacing=\"0\" cellpadding=\"0\"><th><p><a href=\"home.php?mod=space&amp;uid={id}&amp;do=thread&amp;type=thread&amp;view=me&amp;from=space\" class=\"xi2\">{threads}</a></p>主题</th>\
             <th><p><a href=\"home.php?mod=space&amp;uid={id}&amp;do=thread&amp;type=reply&amp;view=me&amp;from=space\" class=\"xi2\">{count}</a></p>帖子</th>\
             <td><p><a href=\"home.php?mod=space&amp;uid={id}&amp;do=profile\" class=\"xi2\">{credits}</a></p>积分</td></table></div>\
             <p><em><a href=\"home.php?mod=spacecp&amp;ac=usergroup&amp;gid={group}\" target=\"_blank\">{title}</a></em></p></div></td>\
             <td class=\"plc\" style=\"width:100%\"><div class=\"pi\"><strong><a href=\"forum.php?mod=redirect&amp;goto=findpost&amp;ptid=905&amp;pid={pid}\" id=\"postnum{pid}\">{floor}</a></strong>\
             <div class=\"pti\"><div class=\"pdbt\"></div><div class=\"authi\"><img class=\"authicn vm\" id=\"authicon{pid}\" src=\"static/image/common/online_member.gif\">\
             <em id=\"authorposton{pid}\">{date}</em><span class=\"pipe\">|</span><a href=\"forum.php?mod=viewthread&amp;tid=905&amp;page=1&amp;authorid={id}\" rel=\"nofollow\">只看该作者</a></div></div></div>\
             <div class=\"pct\"><div class=\"pcb\"><div class=\"t_fsz\"><table cellspacing=\"0\" cellpadding=\"0\"><tr><td class=\"t_f\" id=\"postmessage_{pid}\">\
             {quote_html}{body}</td></tr></table></div></div></div></td></tr>{signature}\
             <tr><td class=\"pls\"></td><td class=\"plc\"><div class=\"po hin\"><div class=\"pob cl\"><em><a class=\"fastre\" href=\"forum.php?mod=post&amp;action=reply&amp;fid=2&amp;tid=905&amp;repquote={pid}\">回复</a></em>\
             <p><a href=\"javascript:;\" onclick=\"showWindow('miscreport{pid}', this.href)\">举报</a></p></div></div></td></tr></table></div>",
            name = message.name,
            id = message.user_id,
            threads = 3 + index * 5,
            count = message.post_count,
            credits = message.post_count * 3 + 17,
            group = 10 + index,
            title = message.user_title,
            floor = floors[index],
            body = message.html_with_breaks(),
        ));
        wanted.push(Wanted::new(
            profile.replace("&amp;", "&"),
            iso,
            &format!("{quote_text}{}", message.text()),
        ));
    }
    let body = format!(
        "<div id=\"pt\" class=\"bm cl\"><div class=\"z\"><a href=\"./\" class=\"nvhm\">论坛</a> <em>›</em> <a href=\"forum-2-1.html\">编程语言</a> <em>›</em> \
         <a href=\"thread-905-1-1.html\">{subject}</a></div></div>\
         <div id=\"postlist\" class=\"pl bm\"><table cellspacing=\"0\" cellpadding=\"0\"><tr><td class=\"pls ptn pbn\"><div class=\"hm ptn\"><span class=\"xg1\">查看:</span> <span class=\"xi1\">1288</span>\
         <span class=\"pipe\">|</span><span class=\"xg1\">回复:</span> <span class=\"xi1\">3</span></div></td><td class=\"plc ptm pbn vwthd\"><h1 class=\"ts\">\
         <span id=\"thread_subject\">{subject}</span></h1></td></tr></table>{posts}</div>\
         <div id=\"f_pst\" class=\"pl bm bmw\"><form method=\"post\" id=\"fastpostform\" action=\"forum.php?mod=post&amp;action=reply&amp;fid=2&amp;tid=905\">\
         <textarea rows=\"6\" cols=\"80\" name=\"message\" id=\"fastpostmessage\"></textarea><button type=\"submit\" name=\"replysubmit\" id=\"fastpostsubmit\">发表回复</button></form></div>\
         <div id=\"ft\" class=\"wp cl\"><p class=\"xs0\">GMT+8, 2025-4-2 20:00 , Processed in 0.052313 second(s), 21 queries .</p></div>",
        subject = CHINESE.subject,
    );
    check(
        EnginePage {
            engine: "Discuz! X3 (Chinese)",
            url: "https://bbs.example.cn/thread-905-1-1.html",
            language: "zh-CN",
            title: "新手求助：Python 读取大文件内存不足 - 编程语言 - 示例论坛",
            body,
        },
        &wanted,
    );
}
