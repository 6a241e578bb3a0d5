//! MyBB 1.8 (Chinese: the classic postbit with user title, stars, reputation and thanks counts,
//! a quote with its date, "Yesterday"-style words) and Invision Power Board 3 (Russian: the date
//! in an `abbr` whose `title` is ISO 8601, reputation buttons, signatures) and Invision
//! Community 4 (German: `<time>` elements, a badge of the author's group, reactions).

use crate::check::{EnginePage, Wanted, check};
use crate::threads::{CHINESE, GERMAN, RUSSIAN};

#[test]
fn mybb_1_8_in_chinese() {
    let shown = [
        ("2016-05-04, 09:05 PM", "2016-05-04T21:05"),
        ("2016-05-05, 08:30 AM", "2016-05-05T08:30"),
        ("2016-05-05, 07:45 PM", "2016-05-05T19:45"),
        ("2016-06-02, 10:02 AM", "2016-06-02T10:02"),
    ];
    let mut posts = String::new();
    let mut wanted = Vec::new();
    for (index, (message, (date, iso))) in CHINESE.messages.iter().zip(shown).enumerate() {
        let pid = 7700 + index;
        let profile = format!("member.php?action=profile&amp;uid={}", message.user_id);
        let (quote_html, quote_text) = if index == 3 {
            (
                "<blockquote class=\"mycode_quote\"><cite><span> (2016-05-05, 08:30 AM)</span> linux_fan 写道： \
                 <a href=\"showthread.php?pid=7701#pid7701\" class=\"quick_jump\"></a></cite>直接用 for 循环遍历文件对象。</blockquote>",
                "(2016-05-05, 08:30 AM) linux_fan 写道： 直接用 for 循环遍历文件对象。 ",
            )
        } else {
            ("", "")
        };
        let signature = if index == 0 {
            format!(
                "<div class=\"signature scaleimages\">{}</div>",
                CHINESE.signature
            )
        } else {
            String::new()
        };
        posts.push_str(&format!(
            "<a name=\"pid{pid}\" id=\"pid{pid}\"></a><div class=\"post classic \" style=\"\" id=\"post_{pid}\">\
             <div class=\"post_author scaleimages\"><div class=\"author_avatar\"><a href=\"{profile}\"><img src=\"./uploads/avatars/avatar_{id}.png\" alt=\"\" width=\"70\" height=\"70\"></a></div>\
             <div class=\"author_information\"><strong><span class=\"largetext\"><a href=\"{profile}\">{name}</a></span></strong> <img src=\"images/buddy_offline.png\" title=\"离线\" alt=\"离线\" class=\"buddy_status\"><br>\
             <span class=\"smalltext\">{title}<br><img src=\"images/star.png\" border=\"0\" alt=\"*\"><img src=\"images/star.png\" border=\"0\" alt=\"*\"><br></span></div>\
             <div class=\"author_statistics\">帖子: {count}<br>主题: {threads}<br>注册于: 2015-01<br>\
             声望: <a href=\"reputation.php?uid={id}\"><strong class=\"reputation_positive\">{reputation}</strong></a><br>感谢: {thanks}</div></div>\
             <div class=\"post_content\"><div class=\"post_head\"><div class=\"float_right\" style=\"vertical-align: top\"><strong>\
             <a href=\"showthread.php?tid=64&amp;pid={pid}#pid{pid}\" title=\"{subject}\">#{number}</a></strong></div>\
             <span class=\"post_date\">{date} <span class=\"post_edit\" id=\"edited_by_{pid}\"></span></span></div>\
             <div class=\"post_body scaleimages\" id=\"pid_{pid}\">{quote_html}{body}</div>{signature}<div class=\"post_meta\" id=\"post_meta_{pid}\"></div></div>\
             <div class=\"post_controls\"><div class=\"postbit_buttons author_buttons float_left\">\
             <a href=\"member.php?action=profile&amp;uid={id}\" title=\"查看资料\" class=\"postbit_website\"><span>资料</span></a>\
             <a href=\"search.php?action=finduser&amp;uid={id}\" title=\"查找该用户的所有帖子\" class=\"postbit_find\"><span>查找</span></a></div>\
             <div class=\"postbit_buttons post_management_buttons float_right\"><a href=\"newreply.php?tid=64&amp;replyto={pid}\" title=\"引用此帖进行回复\" class=\"postbit_quote postbit_mirage\"><span>回复</span></a></div></div></div>",
            number = index + 1,
            name = message.name,
            id = message.user_id,
            title = message.user_title,
            count = message.post_count,
            threads = message.post_count / 10,
            reputation = 5 + index * 4,
            thanks = index * 3,
            subject = CHINESE.subject,
            body = message.html_with_breaks(),
        ));
        wanted.push(Wanted::new(
            format!("member.php?action=profile&uid={}", message.user_id),
            iso,
            &format!("{quote_text}{}", message.text()),
        ));
    }
    let body = format!(
        "<table border=\"0\" cellspacing=\"0\" cellpadding=\"5\" class=\"tborder tfixed clear\"><tr><td class=\"thead\" colspan=\"2\">\
         <div><strong>{subject}</strong></div></td></tr></table><div id=\"posts_container\"><div id=\"posts\">{posts}</div></div>\
         <form method=\"post\" action=\"newreply.php?tid=64&amp;processed=1\" name=\"quick_response_form\" id=\"quick_reply_form\">\
         <table border=\"0\" cellspacing=\"0\" cellpadding=\"5\" class=\"tborder\"><thead><tr><td class=\"thead\" colspan=\"2\"><strong>快速回复</strong></td></tr></thead>\
         <tbody id=\"quickreply_e\"><tr><td class=\"trow1\" valign=\"top\" width=\"22%\"><strong>信息</strong><br><span class=\"smalltext\">请在此输入回复内容。</span></td>\
         <td class=\"trow1\"><textarea style=\"width: 100%; padding: 4px; margin: 0;\" rows=\"8\" cols=\"80\" name=\"message\" id=\"message\" tabindex=\"1\"></textarea></td></tr>\
         <tr><td colspan=\"2\" align=\"center\" class=\"tfoot\"><input type=\"submit\" class=\"button\" value=\"发表回复\" tabindex=\"2\" accesskey=\"s\" id=\"quick_reply_submit\"></td></tr></tbody></table></form>",
        subject = CHINESE.subject,
    );
    check(
        EnginePage {
            engine: "MyBB 1.8 (Chinese)",
            url: "https://bbs.example.cn/showthread.php?tid=64",
            language: "zh-CN",
            title: "新手求助：Python 读取大文件内存不足",
            body,
        },
        &wanted,
    );
}

#[test]
fn invision_power_board_3_in_russian() {
    let shown = [
        (
            "2016-05-04T18:05:00+00:00",
            "04 Май 2016 - 21:05",
            "2016-05-04T18:05:00+00:00",
        ),
        (
            "2016-05-05T05:30:00+00:00",
            "05 Май 2016 - 08:30",
            "2016-05-05T05:30:00+00:00",
        ),
        (
            "2016-05-05T16:45:00+00:00",
            "05 Май 2016 - 19:45",
            "2016-05-05T16:45:00+00:00",
        ),
        (
            "2016-06-02T07:02:00+00:00",
            "02 Июнь 2016 - 10:02",
            "2016-06-02T07:02:00+00:00",
        ),
    ];
    let mut posts = String::new();
    let mut wanted = Vec::new();
    for (index, (message, (machine, visible, iso))) in
        RUSSIAN.messages.iter().zip(shown).enumerate()
    {
        let pid = 45000 + index;
        let profile = format!(
            "http://forum.example.ru/index.php?showuser={}",
            message.user_id
        );
        let (quote_html, quote_text) = if index == 2 {
            (
                "<p class=\"citation\">olga_k (05 Май 2016 - 08:30) писал:</p><div class=\"blockquote\"><div class=\"quote\">Проверьте режим питания.</div></div><br>",
                "olga_k (05 Май 2016 - 08:30) писал: Проверьте режим питания. ",
            )
        } else {
            ("", "")
        };
        let signature = if index == 0 {
            format!(
                "<div class=\"signature\" data-memberid=\"{}\">{}</div>",
                message.user_id, RUSSIAN.signature
            )
        } else {
            String::new()
        };
        posts.push_str(&format!(
            "<a id=\"entry{pid}\"></a><div class=\"post_block hentry clear clearfix  \" id=\"post_id_{pid}\">\
             <div class=\"post_wrap\"><h3 class=\"row2\"><span class=\"author vcard\"><a class=\"url fn name ___hover___member _hoversetup\" data-ipb=\"ipb-member\" href=\"{profile}\" title=\"Просмотр профиля\">\
             <span itemprop=\"name\">{name}</span></a></span></h3>\
             <div class=\"author_info\"><div class=\"user_details\"><span class=\"hide\" itemprop=\"name\">{name}</span><ul class=\"basic_info\">\
             <p class=\"desc member_title\">{title}</p><li class=\"avatar\"><a itemprop=\"url\" href=\"{profile}\" title=\"Просмотр профиля\" class=\"ipsUserPhotoLink\"><img src=\"http://forum.example.ru/uploads/av-{id}.jpg\" class=\"ipsUserPhoto ipsUserPhoto--large\" alt=\"\"></a></li>\
             <li class=\"group_title\">Пользователи</li><li class=\"post_count desc lighter\">{count} сообщений</li></ul>\
             <ul class=\"custom_fields\"><li><span class=\"ft\">Пол:</span><span class=\"fc\">Не указан</span></li><li><span class=\"ft\">Город:</span><span class=\"fc\">Казань</span></li></ul></div></div>\
             <div class=\"post_body\"><p class=\"posted_info desc lighter ipsType_small\"><img src=\"http://forum.example.ru/public/style_images/master/icon_users.png\" alt=\"\">\
             Отправлено <abbr class=\"published\" itemprop=\"commentTime\" title=\"{machine}\">{visible}</abbr></p>\
             <div itemprop=\"commentText\" class=\"post entry-content \"><!--cached-->{quote_html}{body}</div>{signature}</div>\
             <ul class=\"post_controls clear clearfix\"><li class=\"report\"><a href=\"http://forum.example.ru/index.php?app=core&amp;module=reports&amp;rcom=post&amp;tid=9&amp;pid={pid}\">Жалоба</a></li>\
             <li class=\"multiquote\" id=\"multiq_{pid}\"><a href=\"#\" title=\"Включить цитирование нескольких сообщений\">Мультицитата</a></li>\
             <li id=\"quote_{pid}\"><a href=\"http://forum.example.ru/index.php?app=forums&amp;module=post&amp;section=post&amp;do=reply_post&amp;t=9&amp;qpid={pid}\" title=\"Ответить цитированием\">Цитата</a></li></ul>\
             <div class=\"rep_bar clearfix right\" id=\"rep_post_{pid}\"><ul class=\"ipsList_inline ipsLikeRep\"><li><a href=\"#\" class=\"rep_up\" title=\"Хороший пост\"><img src=\"rep_up.png\" alt=\"+\"></a></li>\
             <li><span class=\"reputation positive rep_show\" title=\"Репутация\">{reputation}</span></li></ul></div></div></div><hr>",
            name = message.name,
            id = message.user_id,
            title = message.user_title,
            count = message.post_count,
            reputation = index * 2 + 1,
            body = message.html_with_breaks(),
        ));
        wanted.push(Wanted::new(
            profile,
            iso,
            &format!("{quote_text}{}", message.text()),
        ));
    }
    let body = format!(
        "<h1 class=\"ipsType_pagetitle\">{subject}</h1><div class=\"maintitle clear clearfix\"><span class=\"ipsType_small\">Сообщений в теме: 4</span></div>\
         <div class=\"topic hfeed clear clearfix\"><div class=\"clear\"></div>{posts}</div>\
         <div class=\"ipsBox_container ipsPad\" id=\"fast_reply_wrapper\"><h2 class=\"maintitle\">Быстрый ответ</h2>\
         <form action=\"http://forum.example.ru/index.php\" method=\"post\"><textarea name=\"Post\" class=\"input_text\" rows=\"8\" cols=\"50\"></textarea>\
         <input type=\"submit\" name=\"submit\" class=\"input_submit\" value=\"Отправить\"></form></div>",
        subject = RUSSIAN.subject,
    );
    check(
        EnginePage {
            engine: "Invision Power Board 3 (Russian)",
            url: "http://forum.example.ru/index.php?showtopic=9",
            language: "ru",
            title: "Ноутбук перегревается при игре - Форум",
            body,
        },
        &wanted,
    );
}

#[test]
fn invision_community_4_in_german() {
    let shown = [
        (
            "2016-05-04T19:05:00Z",
            "4. Mai 2016",
            "2016-05-04T19:05:00+00:00",
        ),
        (
            "2016-05-05T06:30:00Z",
            "5. Mai 2016",
            "2016-05-05T06:30:00+00:00",
        ),
        (
            "2016-05-05T17:45:00Z",
            "5. Mai 2016",
            "2016-05-05T17:45:00+00:00",
        ),
        (
            "2016-06-02T08:02:00Z",
            "2. Juni 2016",
            "2016-06-02T08:02:00+00:00",
        ),
    ];
    let mut posts = String::new();
    let mut wanted = Vec::new();
    for (index, (message, (machine, visible, iso))) in GERMAN.messages.iter().zip(shown).enumerate()
    {
        let comment = 88_000 + index;
        let profile = format!(
            "https://community.example.de/profile/{}-{}/",
            message.user_id,
            message.name.to_lowercase().replace([' ', '.'], "")
        );
        let (quote_html, quote_text) = if index == 1 {
            (
                "<blockquote class=\"ipsQuote\" data-ipsquote=\"\" data-ipsquote-contentapp=\"forums\" data-ipsquote-username=\"Heizungsbauer\">\
                 <div class=\"ipsQuote_citation\">Heizungsbauer schrieb:</div><div class=\"ipsQuote_contents\"><p>Der Druck liegt bei 1,5 bar.</p></div></blockquote>",
                "Heizungsbauer schrieb: Der Druck liegt bei 1,5 bar. ",
            )
        } else {
            ("", "")
        };
        let signature = if index == 0 {
            format!(
                "<div data-role=\"memberSignature\" class=\"ipsResponsive_hidePhone\"><hr class=\"ipsHr\"><div class=\"ipsType_richText ipsContained\">{}</div></div>",
                GERMAN.signature
            )
        } else {
            String::new()
        };
        posts.push_str(&format!(
            "<article id=\"elComment_{comment}\" class=\"cPost ipsBox ipsResponsive_pull ipsComment ipsComment_parent ipsClearfix ipsClear ipsColumns ipsColumns_noSpacing ipsColumns_collapsePhone\">\
             <div class=\"cAuthorPane_mobile ipsResponsive_showPhone\"><div class=\"cAuthorPane_content\"><h3 class=\"ipsType_sectionHead cAuthorPane_author ipsType_break ipsType_blendLinks ipsFlex ipsFlex-ai:center\">\
             <a href=\"{profile}\" class=\"ipsType_break\">{name}</a></h3></div></div>\
             <aside class=\"ipsComment_author cAuthorPane ipsColumn ipsColumn_medium ipsResponsive_hidePhone\"><h3 class=\"ipsType_sectionHead cAuthorPane_author ipsType_blendLinks ipsType_break\">\
             <strong><a href=\"{profile}\" class=\"ipsType_break\">{name}</a></strong> <span class=\"ipsMargin_left:half\"><span title=\"Reputation des Mitglieds\" class=\"ipsRepBadge ipsRepBadge_positive\"><i class=\"fa fa-plus-circle\"></i> {reputation}</span></span></h3>\
             <ul class=\"cAuthorPane_info ipsList_reset\"><li data-role=\"photo\" class=\"cAuthorPane_photo\"><a href=\"{profile}\" class=\"ipsUserPhoto ipsUserPhoto_large\"><img src=\"https://community.example.de/uploads/{id}.jpg\" alt=\"{name}\"></a></li>\
             <li data-role=\"group\">{title}</li><li data-role=\"stats\" class=\"ipsMargin_top\"><ul class=\"ipsList_reset ipsType_light ipsFlex ipsFlex-ai:center ipsFlex-jc:center ipsGap_row:2 cAuthorPane_stats\">\
             <li><a href=\"{profile}content/\" title=\"{count} Beiträge\" class=\"ipsType_blendLinks\"><i class=\"fa fa-comment\"></i> {count}</a></li></ul></li></ul></aside>\
             <div class=\"ipsColumn ipsColumn_fluid ipsMargin:none\"><div id=\"comment-{comment}_wrap\" data-controller=\"core.front.core.comment\" class=\"ipsComment_content ipsType_medium\">\
             <div class=\"ipsComment_meta ipsType_light ipsFlex ipsFlex-ai:center ipsFlex-jc:between ipsFlex-fd:row-reverse\"><div class=\"ipsType_light ipsType_reset ipsType_blendLinks ipsComment_toolWrap\">\
             <ul class=\"ipsList_reset ipsComment_tools\"><li><a href=\"https://community.example.de/topic/9-heizung/?do=findComment&amp;comment={comment}\" class=\"ipsType_blendLinks\" title=\"Diesen Beitrag teilen\">Teilen</a></li></ul></div>\
             <div class=\"ipsType_reset ipsResponsive_hidePhone\">Geschrieben <time datetime=\"{machine}\" title=\"{machine}\" data-short=\"9 J\">{visible}</time></div></div>\
             <div class=\"cPost_contentWrap\"><div data-role=\"commentContent\" class=\"ipsType_normal ipsType_richText ipsPadding_bottom ipsContained\" data-controller=\"core.front.core.lightboxedImages\">{quote_html}{body}</div>\
             <div class=\"ipsItemControls\"><div data-controller=\"core.front.core.reaction\" class=\"ipsItemControls_right ipsClearfix \"><div class=\"ipsReact ipsPos_right\">\
             <div class=\"ipsReact_reactions\"><ul><li class=\"ipsReact_reactCount\"><span data-ipstooltip=\"\" title=\"Gefällt mir\"><span><img src=\"react_like.png\" alt=\"Gefällt mir\"></span><span>{likes}</span></span></li></ul></div></div></div>\
             <ul class=\"ipsComment_controls ipsClearfix ipsItemControls_left\" data-role=\"commentControls\"><li data-ipsquote-editor=\"topic_comment\"><a href=\"#\" data-action=\"quoteComment\" class=\"ipsButton ipsButton_light ipsButton_verySmall ipsButton_narrow\">Zitieren</a></li></ul></div>\
             {signature}</div></div></div></article>",
            name = message.name,
            id = message.user_id,
            title = message.user_title,
            count = message.post_count,
            reputation = 10 + index * 9,
            likes = index + 1,
            body = message.html_paragraphs(),
        ));
        wanted.push(Wanted::new(
            profile,
            iso,
            &format!("{quote_text}{}", message.text()),
        ));
    }
    let body = format!(
        "<div class=\"ipsPageHeader ipsResponsive_pull ipsBox ipsPadding sm:ipsPadding:half ipsMargin_bottom\"><h1 class=\"ipsType_pageTitle ipsContained_container\">{subject}</h1></div>\
         <div id=\"comments\" data-controller=\"core.front.core.commentFeed\" data-feedid=\"topic-9\" class=\"cTopic ipsClear ipsSpacer_top\">{posts}</div>\
         <div class=\"ipsBox ipsPadding ipsResponsive_pull ipsResponsive_showPhone ipsMargin_top\"><div class=\"ipsShareLinks\"></div></div>\
         <div class=\"cTopicPostArea ipsBox ipsResponsive_pull ipsPadding ipsSpacer_top\"><div class=\"ipsComposeArea ipsClearfix ipsContained\">\
         <div class=\"ipsComposeArea_editor\"><div class=\"ipsType_normal ipsType_richText ipsType_break\"><p>Auf dieses Thema antworten...</p></div>\
         <textarea name=\"topic_comment_9\" data-role=\"contentEditor\"></textarea></div></div></div>",
        subject = GERMAN.subject,
    );
    check(
        EnginePage {
            engine: "Invision Community 4 (German)",
            url: "https://community.example.de/topic/9-heizung-macht-nachts-ger%C3%A4usche/",
            language: "de",
            title: "Heizung macht nachts Geräusche - Haustechnik - Community",
            body,
        },
        &wanted,
    );
}
