//! XenForo 1 (English: a title bar above the posts naming the starter and the thread's date,
//! which is the thread's header and no post; user titles, trophy points, a quote with a
//! "Click to expand..." line, likes naming other users, a reply form made like a post) and
//! XenForo 2 (Russian: `<time>` with an offset, a Unix `data-time`, user titles and banners,
//! reactions listing other users' names, similar threads with starters and dates, a quick-reply
//! block made like a post).

use crate::check::{EnginePage, Wanted, check};
use crate::threads::{ENGLISH, RUSSIAN};

#[test]
fn xenforo_2_in_russian() {
    let shown = [
        (
            "2016-05-04T21:05:00+0300",
            1_462_385_100,
            "4 Май 2016 в 21:05",
            "4 Май 2016",
            "2016-05-04T21:05:00+03:00",
        ),
        (
            "2016-05-05T08:30:00+0300",
            1_462_426_200,
            "5 Май 2016 в 08:30",
            "5 Май 2016",
            "2016-05-05T08:30:00+03:00",
        ),
        (
            "2016-05-05T19:45:00+0300",
            1_462_466_700,
            "5 Май 2016 в 19:45",
            "5 Май 2016",
            "2016-05-05T19:45:00+03:00",
        ),
        (
            "2016-06-02T10:02:00+0300",
            1_464_850_920,
            "2 Июн 2016 в 10:02",
            "2 Июн 2016",
            "2016-06-02T10:02:00+03:00",
        ),
    ];
    let mut posts = String::new();
    let mut wanted = Vec::new();
    for (index, (message, (datetime, unix, title, visible, iso))) in
        RUSSIAN.messages.iter().zip(shown).enumerate()
    {
        let post_id = 3300 + index;
        let member = format!("/members/user{}.{}/", message.user_id, message.user_id);
        let (quote_html, quote_text) = if index == 3 {
            (
                "<blockquote data-attributes=\"member: 61\" data-quote=\"olga_k\" data-source=\"post: 3301\" class=\"bbCodeBlock bbCodeBlock--expandable bbCodeBlock--quote js-expandWatch\">\
                 <div class=\"bbCodeBlock-title\"><a href=\"/goto/post?id=3301\" class=\"bbCodeBlock-sourceJump\" rel=\"nofollow\">olga_k сказал(а):</a></div>\
                 <div class=\"bbCodeBlock-content\"><div class=\"bbCodeBlock-expandContent js-expandContent \">Проверьте режим питания.</div>\
                 <div class=\"bbCodeBlock-expandLink js-expandLink\"><a role=\"button\" tabindex=\"0\">Нажмите для раскрытия...</a></div></div></blockquote>",
                "olga_k сказал(а): Проверьте режим питания. Нажмите для раскрытия... ",
            )
        } else {
            ("", "")
        };
        let signature = if index == 0 {
            format!(
                "<aside class=\"message-signature\"><div class=\"bbWrapper\">{}</div></aside>",
                RUSSIAN.signature
            )
        } else {
            String::new()
        };
        let banner = if message.user_title == "Модератор" {
            "<div class=\"userBanner userBanner--staff message-userBanner\" dir=\"auto\" itemprop=\"jobTitle\"><span class=\"userBanner-before\"></span><strong>Команда форума</strong><span class=\"userBanner-after\"></span></div>"
        } else {
            ""
        };
        let reactions = if index < 2 {
            "<div class=\"reactionsBar js-reactionsList is-active\"><ul class=\"reactionSummary\"><li><span class=\"reaction reaction--small reaction--1\" data-reaction-id=\"1\"><i aria-hidden=\"true\"></i></span></li></ul>\
             <span class=\"u-srOnly\">Реакции:</span><a class=\"reactionsBar-link\" href=\"/posts/3300/reactions\" data-xf-click=\"overlay\" rel=\"nofollow\"><bdi>olga_k</bdi> и <bdi>vlad</bdi></a></div>"
        } else {
            ""
        };
        posts.push_str(&format!(
            "<article class=\"message message--post js-post js-inlineModContainer\" data-author=\"{name}\" data-content=\"post-{post_id}\" id=\"js-post-{post_id}\">\
             <span class=\"u-anchorTarget\" id=\"post-{post_id}\"></span><div class=\"message-inner\"><div class=\"message-cell message-cell--user\">\
             <section class=\"message-user\" itemprop=\"author\" itemscope itemtype=\"https://schema.org/Person\">\
             <div class=\"message-avatar \"><div class=\"message-avatar-wrapper\"><a href=\"{member}\" class=\"avatar avatar--m\" data-user-id=\"{id}\" data-xf-init=\"member-tooltip\"><img src=\"/data/avatars/m/0/{id}.jpg\" alt=\"{name}\" class=\"avatar-u{id}-m\" width=\"96\" height=\"96\"></a></div></div>\
             <div class=\"message-userDetails\"><h4 class=\"message-name\"><a href=\"{member}\" class=\"username \" dir=\"auto\" data-user-id=\"{id}\" data-xf-init=\"member-tooltip\" itemprop=\"name\">{name}</a></h4>\
             <h5 class=\"userTitle message-userTitle\" dir=\"auto\" itemprop=\"jobTitle\">{title}</h5>{banner}</div>\
             <div class=\"message-userExtras\"><dl class=\"pairs pairs--justified\"><dt>Регистрация</dt><dd>12 Янв 2015</dd></dl>\
             <dl class=\"pairs pairs--justified\"><dt>Сообщения</dt><dd>{count}</dd></dl><dl class=\"pairs pairs--justified\"><dt>Реакции</dt><dd>{liked}</dd></dl></div>\
             <span class=\"message-userArrow\"></span></section></div>\
             <div class=\"message-cell message-cell--main\"><div class=\"message-main js-quickEditTarget\">\
             <header class=\"message-attribution message-attribution--split\"><ul class=\"message-attribution-main listInline \"><li class=\"u-concealed\">\
             <a href=\"/threads/noutbuk.3/post-{post_id}\" rel=\"nofollow\"><time class=\"u-dt\" dir=\"auto\" datetime=\"{datetime}\" data-time=\"{unix}\" data-date-string=\"{visible}\" title=\"{title_attr}\">{visible}</time></a></li></ul>\
             <ul class=\"message-attribution-opposite message-attribution-opposite--list \"><li><a href=\"/threads/noutbuk.3/post-{post_id}\" rel=\"nofollow\">#{number}</a></li></ul></header>\
             <div class=\"message-content js-messageContent\"><div class=\"message-userContent lbContainer js-lbContainer \" data-lb-id=\"post-{post_id}\">\
             <article class=\"message-body js-selectToQuote\"><div class=\"bbWrapper\">{quote_html}{body}</div><div class=\"js-selectToQuoteEnd\">&nbsp;</div></article></div>{signature}</div>\
             <footer class=\"message-footer\"><div class=\"message-actionBar actionBar\"><div class=\"actionBar-set actionBar-set--external\">\
             <a href=\"/posts/{post_id}/react?reaction_id=1\" class=\"reaction reaction--small actionBar-action actionBar-action--reaction\" data-reaction-id=\"1\"><i aria-hidden=\"true\"></i><span class=\"reaction-text js-reactionText\"><bdi>Нравится</bdi></span></a>\
             <a href=\"/threads/noutbuk.3/reply?quote={post_id}\" class=\"actionBar-action actionBar-action--reply\" title=\"Ответить, цитируя это сообщение\" rel=\"nofollow\">Ответ</a></div></div>\
             {reactions}</footer></div></div></div></article>",
            number = index + 1,
            name = message.name,
            id = message.user_id,
            title = message.user_title,
            title_attr = title,
            count = message.post_count,
            liked = message.post_count / 5,
            body = message.html_with_breaks(),
        ));
        wanted.push(Wanted::new(
            member,
            iso,
            &format!("{quote_text}{}", message.text()),
        ));
    }
    let similar: String = [
        ("SSD греется до 70 градусов", "ivan", 9, "2016-03-12T10:00:00+0300", "12 Мар 2016"),
        ("Вентилятор шумит после чистки", "petr_s", 3, "2016-04-01T18:20:00+0300", "1 Апр 2016"),
        ("Какую термопасту выбрать?", "anna", 14, "2016-04-20T09:15:00+0300", "20 Апр 2016"),
    ]
    .iter()
    .enumerate()
    .map(|(index, (title, starter, replies, datetime, visible))| {
        let member = format!("/members/{starter}.{}/", 90 + index);
        format!(
            "<div class=\"structItem structItem--thread js-inlineModContainer\"><div class=\"structItem-cell structItem-cell--icon\"><div class=\"structItem-iconContainer\">\
             <a href=\"{member}\" class=\"avatar avatar--s\" data-user-id=\"{user}\"><img src=\"/data/avatars/s/0/{user}.jpg\" alt=\"{starter}\"></a></div></div>\
             <div class=\"structItem-cell structItem-cell--main\"><div class=\"structItem-title\"><a href=\"/threads/t.{thread}/\">{title}</a></div>\
             <div class=\"structItem-minor\"><ul class=\"structItem-parts\"><li><a href=\"{member}\" class=\"username \" dir=\"auto\" data-user-id=\"{user}\">{starter}</a></li>\
             <li class=\"structItem-startDate\"><a href=\"/threads/t.{thread}/\" rel=\"nofollow\"><time class=\"u-dt\" dir=\"auto\" datetime=\"{datetime}\">{visible}</time></a></li></ul></div></div>\
             <div class=\"structItem-cell structItem-cell--meta\"><dl class=\"pairs pairs--justified\"><dt>Ответы</dt><dd>{replies}</dd></dl>\
             <dl class=\"pairs pairs--justified structItem-minor\"><dt>Просмотры</dt><dd>{views}</dd></dl></div></div>",
            user = 90 + index,
            thread = 80 + index,
            views = replies * 40,
        )
    })
    .collect();
    let body = format!(
        "<div class=\"p-title \"><h1 class=\"p-title-value\">{subject}</h1></div>\
         <div class=\"block block--messages\"><div class=\"block-container lbContainer\"><div class=\"block-body js-replyNewMessageContainer\">{posts}</div></div></div>\
         <form action=\"/threads/noutbuk.3/add-reply\" method=\"post\" class=\"block js-quickReply\"><div class=\"block-container\"><div class=\"block-body\">\
         <div class=\"message message--quickReply block-topRadiusContent block-bottomRadiusContent\"><div class=\"message-inner\"><div class=\"message-cell message-cell--user\">\
         <div class=\"message-user \"><div class=\"message-avatar \"><div class=\"message-avatar-wrapper\"><span class=\"avatar avatar--m avatar--default avatar--default--dynamic\">G</span></div></div>\
         <span class=\"message-userArrow\"></span></div></div><div class=\"message-cell message-cell--main\"><div class=\"message-editorWrapper\">\
         <textarea name=\"message\" class=\"input\" placeholder=\"Напишите ответ...\"></textarea></div>\
         <div class=\"formButtonGroup \"><button type=\"submit\" class=\"button--primary button button--icon button--icon--reply\"><span class=\"button-text\">Ответить</span></button></div></div></div></div></div></div></form>\
         <div class=\"block\"><div class=\"block-container\"><h3 class=\"block-header\">Похожие темы</h3><div class=\"block-body\"><div class=\"structItemContainer\">{similar}</div></div></div></div>",
        subject = RUSSIAN.subject,
    );
    check(
        EnginePage {
            engine: "XenForo 2 (Russian)",
            url: "https://forum.example.ru/threads/noutbuk.3/",
            language: "ru",
            title: "Ноутбук перегревается при игре | Форум",
            body,
        },
        &wanted,
    );
}

#[test]
fn xenforo_1_in_english() {
    // Older posts show a date with the time in `title`; the latest one a Unix time.
    let shown = [
        (
            "<span class=\"DateTime\" title=\"May 4, 2016 at 9:05 PM\">May 4, 2016</span>",
            "2016-05-04T21:05",
        ),
        (
            "<span class=\"DateTime\" title=\"May 5, 2016 at 8:30 AM\">May 5, 2016</span>",
            "2016-05-05T08:30",
        ),
        (
            "<span class=\"DateTime\" title=\"May 5, 2016 at 7:45 PM\">May 5, 2016</span>",
            "2016-05-05T19:45",
        ),
        (
            "<span class=\"DateTime\" title=\"Jun 2, 2016 at 10:02 AM\">Jun 2, 2016</span>",
            "2016-06-02T10:02",
        ),
    ];
    let mut posts = String::new();
    let mut wanted = Vec::new();
    for (index, (message, (date, iso))) in ENGLISH.messages.iter().zip(shown).enumerate() {
        let post_id = 1200 + index;
        let member = format!(
            "members/{}.{}/",
            message.name.to_lowercase().replace(' ', "-"),
            message.user_id
        );
        let (quote_html, quote_text) = if index == 1 {
            (
                "<div class=\"bbCodeBlock bbCodeQuote\" data-author=\"alice_w\"><aside><div class=\"attribution type\">alice_w said: \
                 <a href=\"goto/post?id=1200#post-1200\" class=\"AttributionLink\">&uarr;</a></div><blockquote class=\"quoteContainer\">\
                 <div class=\"quote\">Only a restart brings it back.</div><div class=\"quoteExpand\">Click to expand...</div></blockquote></aside></div>",
                "alice_w said: ↑ Only a restart brings it back. Click to expand... ",
            )
        } else {
            ("", "")
        };
        let signature = if index == 0 {
            format!(
                "<div class=\"baseHtml signature messageText ugc\"><aside>{}</aside></div>",
                ENGLISH.signature
            )
        } else {
            String::new()
        };
        let likes = if index % 2 == 0 {
            "<div class=\"likesSummary secondaryContent\"><span class=\"LikeText\"><a href=\"members/gina.61/\" class=\"username\" dir=\"auto\">gina</a> and \
             <a href=\"members/henry.62/\" class=\"username\" dir=\"auto\">henry</a> like this.</span></div>"
        } else {
            ""
        };
        posts.push_str(&format!(
            "<li id=\"post-{post_id}\" class=\"message \" data-author=\"{name}\">\
             <div class=\"messageUserInfo\" itemscope=\"itemscope\" itemtype=\"http://data-vocabulary.org/Person\"><div class=\"messageUserBlock \">\
             <div class=\"avatarHolder\"><span class=\"helper\"></span><a href=\"{member}\" class=\"avatar Av{id}m\" data-avatarhtml=\"true\"><img src=\"data/avatars/m/0/{id}.jpg\" width=\"96\" height=\"96\" alt=\"{name}\"></a></div>\
             <h3 class=\"userText\"><a href=\"{member}\" class=\"username\" dir=\"auto\" itemprop=\"name\">{name}</a><em class=\"userTitle\" itemprop=\"title\">{title}</em></h3>\
             <div class=\"extraUserInfo\"><dl class=\"pairsJustified\"><dt>Messages:</dt><dd><a href=\"search/member?user_id={id}\" class=\"concealed\" rel=\"nofollow\">{count}</a></dd></dl>\
             <dl class=\"pairsJustified\"><dt>Likes Received:</dt><dd>{liked}</dd></dl><dl class=\"pairsJustified\"><dt>Trophy Points:</dt><dd><a href=\"{member}trophies\" class=\"OverlayTrigger concealed\">{trophies}</a></dd></dl></div>\
             <span class=\"arrow\"><span></span></span></div></div>\
             <div class=\"messageInfo primaryContent\"><div class=\"messageContent\"><article><blockquote class=\"messageText SelectQuoteContainer ugc baseHtml\">\
             {quote_html}{body}<div class=\"messageTextEndMarker\">&nbsp;</div></blockquote></article></div>{signature}\
             <div class=\"messageMeta ToggleTriggerAnchor\"><div class=\"privateControls\"><span class=\"item muted\"><span class=\"authorEnd\"><a href=\"{member}\" class=\"username author\" dir=\"auto\">{name}</a>,</span>\
             <a href=\"threads/router-drops.3/#post-{post_id}\" title=\"Permalink\" class=\"datePermalink\">{date}</a></span></div>\
             <div class=\"publicControls\"><a href=\"threads/router-drops.3/#post-{post_id}\" title=\"Permalink\" class=\"item muted postNumber hashPermalink OverlayTrigger\" data-href=\"posts/{post_id}/permalink\">#{number}</a>\
             <a href=\"posts/{post_id}/like\" class=\"LikeLink item control like\" data-container=\"#likes-post-{post_id}\"><span></span><span class=\"LikeLabel\">Like</span></a>\
             <a href=\"threads/router-drops.3/reply?quote={post_id}\" data-messageid=\"{post_id}\" class=\"ReplyQuote item control reply\" title=\"Reply, quoting this message\"><span></span>Reply</a></div></div>\
             <div id=\"likes-post-{post_id}\">{likes}</div></div></li>",
            number = index + 1,
            name = message.name,
            id = message.user_id,
            title = message.user_title,
            count = message.post_count,
            liked = message.post_count / 4,
            trophies = 10 + index * 7,
            body = message.html_with_breaks(),
        ));
        wanted.push(Wanted::new(
            member,
            iso,
            &format!("{quote_text}{}", message.text()),
        ));
    }
    let body = format!(
        "<div class=\"titleBar\"><h1>{subject}</h1><p id=\"pageDescription\" class=\"muted \">Discussion in '<a href=\"forums/networking.4/\">Networking</a>' started by \
         <a href=\"members/alice_w.1021/\" class=\"username\" dir=\"auto\">alice_w</a>, <span class=\"DateTime\" title=\"May 4, 2016 at 9:05 PM\">May 4, 2016</span>.</p></div>\
         <form action=\"inline-mod/post/switch\" method=\"post\" class=\"InlineModForm section\" id=\"ThreadPosts\"><ol class=\"messageList\" id=\"messageList\">{posts}</ol></form>\
         <form action=\"threads/router-drops.3/add-reply\" method=\"post\" class=\"AutoValidator blendedEditor\" id=\"QuickReply\">\
         <div class=\"messageUserInfo\"><div class=\"messageUserBlock\"><div class=\"avatarHolder\"><span class=\"helper\"></span><a href=\"members/guest.0/\" class=\"avatar Av0m\"><img src=\"styles/default/xenforo/avatars/avatar_m.png\" width=\"96\" height=\"96\" alt=\"Guest\"></a></div>\
         <span class=\"arrow\"><span></span></span></div></div><div class=\"messageInfo\"><textarea name=\"message\" id=\"ctrl_message\" class=\"textCtrl MessageEditor\" placeholder=\"Write your reply...\"></textarea>\
         <div class=\"submitUnit\"><input type=\"submit\" class=\"button primary\" value=\"Post Reply\" accesskey=\"s\"></div></div></form>",
        subject = ENGLISH.subject,
    );
    check(
        EnginePage {
            engine: "XenForo 1 (English)",
            url: "https://community.example.com/threads/router-drops.3/",
            language: "en",
            title: "Router drops the connection every evening | Example Community",
            body,
        },
        &wanted,
    );
}
