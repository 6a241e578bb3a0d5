//! Engines of the JavaScript era, as their pages for crawlers or as a browser saves them:
//! Discourse (Chinese: the page for crawlers with its related-topics table), Flarum
//! (English: badges, a "likes this" footer naming other users), Vanilla (English: the
//! discussion apart from its comments, a month alone as visible text and the time with a meridiem
//! glued to the minutes in `title`, role titles) and NodeBB (Spanish: the first post marked
//! apart by a class on its root element alone, times in `title` and `datePublished`, a quote
//! whose attribution runs into a colon, group badges, a quick-reply form).

use crate::check::{EnginePage, Wanted, check};
use crate::threads::{CHINESE, ENGLISH, SPANISH};

#[test]
fn discourse_page_for_crawlers_in_chinese() {
    let shown = [
        (
            "2016-05-04T13:05:00Z",
            "2016 年 5 月 4 日 21:05",
            "2016-05-04T13:05:00+00:00",
        ),
        (
            "2016-05-05T00:30:00Z",
            "2016 年 5 月 5 日 08:30",
            "2016-05-05T00:30:00+00:00",
        ),
        (
            "2016-05-05T11:45:00Z",
            "2016 年 5 月 5 日 19:45",
            "2016-05-05T11:45:00+00:00",
        ),
        (
            "2016-06-02T02:02:00Z",
            "2016 年 6 月 2 日 10:02",
            "2016-06-02T02:02:00+00:00",
        ),
    ];
    let mut posts = String::new();
    let mut wanted = Vec::new();
    for (index, (message, (machine, visible, iso))) in
        CHINESE.messages.iter().zip(shown).enumerate()
    {
        let slug = format!("user{}", message.user_id);
        let profile = format!("https://discuss.example.cn/u/{slug}");
        posts.push_str(&format!(
            "<div id=\"post_{number}\" itemprop=\"comment\" itemscope itemtype=\"http://schema.org/Comment\" class=\"topic-body crawler-post\">\
             <div class=\"crawler-post-meta\"><span class=\"creator\" itemprop=\"author\" itemscope itemtype=\"http://schema.org/Person\">\
             <a itemprop=\"url\" href=\"{profile}\"><span itemprop=\"name\">{slug}</span></a> ({name})</span>\
             <span class=\"crawler-post-infos\"><time itemprop=\"datePublished\" datetime=\"{machine}\" class=\"post-time\">{visible}</time>\
             <meta itemprop=\"dateModified\" content=\"{machine}\"><span itemprop=\"position\">{number}</span></span></div>\
             <div class=\"post\" itemprop=\"text\">{body}</div>\
             <div itemprop=\"interactionStatistic\" itemscope itemtype=\"http://schema.org/InteractionCounter\"><meta itemprop=\"interactionType\" content=\"http://schema.org/LikeAction\">\
             <meta itemprop=\"userInteractionCount\" content=\"{likes}\"><span class=\"post-likes\">{likes} 个赞</span></div></div>",
            number = index + 1,
            name = message.name,
            likes = index * 2 + 1,
            body = message.html_paragraphs(),
        ));
        wanted.push(Wanted::new(profile, iso, &message.text()));
    }
    let related: String = [
        ("pandas 读取 CSV 很慢怎么办", "帮助", 5, 120, "2016 年 4 月 12 日"),
        ("生成器和迭代器有什么区别", "讨论", 11, 890, "2016 年 4 月 20 日"),
        ("多进程处理日志文件", "帮助", 3, 75, "2016 年 4 月 28 日"),
    ]
    .iter()
    .enumerate()
    .map(|(index, (title, category, replies, views, activity))| {
        format!(
            "<tr class=\"topic-list-item\" id=\"topic-list-item-{topic}\"><td class=\"main-link\" itemprop=\"itemListElement\" itemscope itemtype=\"http://schema.org/ListItem\">\
             <meta itemprop=\"position\" content=\"{position}\"><span class=\"link-top-line\"><a itemprop=\"url\" href=\"https://discuss.example.cn/t/topic/{topic}\" class=\"title raw-link raw-topic-link\">{title}</a></span>\
             <div class=\"link-bottom-line\"><a href=\"/c/{category}/5\" class=\"badge-wrapper bullet\"><span class=\"badge-category-bg\"></span><span class=\"badge-category clear-badge\"><span class=\"category-name\">{category}</span></span></a></div></td>\
             <td class=\"replies\"><span class=\"posts\" title=\"帖子\">{replies}</span></td><td class=\"views\"><span class=\"views\" title=\"浏览量\">{views}</span></td><td>{activity}</td></tr>",
            topic = 900 + index,
            position = index + 1,
        )
    })
    .collect();
    let body = format!(
        "<div id=\"main-outlet\" class=\"wrap\" role=\"main\"><div id=\"topic-title\"><h1><a href=\"/t/topic/123\">{subject}</a></h1>\
         <div class=\"topic-category\" itemscope itemtype=\"http://schema.org/BreadcrumbList\"><span itemprop=\"itemListElement\"><a href=\"/c/help/5\" class=\"badge-wrapper bullet\"><span class=\"category-name\">帮助</span></a></span></div></div>\
         <div itemscope itemtype=\"http://schema.org/DiscussionForumPosting\">{posts}</div>\
         <div id=\"related-topics\" class=\"more-topics__list \" role=\"complementary\"><h3 id=\"related-topics-title\" class=\"more-topics__list-title\">相关话题</h3>\
         <div class=\"topic-list-container\" itemscope itemtype=\"http://schema.org/ItemList\"><table class=\"topic-list\"><thead><tr><th>话题</th><th></th>\
         <th class=\"replies\">回复</th><th class=\"views\">浏览量</th><th>活动</th></tr></thead><tbody>{related}</tbody></table></div></div></div>",
        subject = CHINESE.subject,
    );
    check(
        EnginePage {
            engine: "Discourse (Chinese, page for crawlers)",
            url: "https://discuss.example.cn/t/topic/123",
            language: "zh-CN",
            title: "新手求助：Python 读取大文件内存不足 - 帮助 - 示例社区",
            body,
        },
        &wanted,
    );
}

#[test]
fn flarum_as_saved_by_a_browser() {
    let shown = [
        (
            "2016-05-04T21:05:00+00:00",
            "Wednesday, May 4, 2016 9:05 PM",
            "May 4, 2016",
        ),
        (
            "2016-05-05T08:30:00+00:00",
            "Thursday, May 5, 2016 8:30 AM",
            "May 5, 2016",
        ),
        (
            "2016-05-05T19:45:00+00:00",
            "Thursday, May 5, 2016 7:45 PM",
            "May 5, 2016",
        ),
        (
            "2016-06-02T10:02:00+00:00",
            "Thursday, June 2, 2016 10:02 AM",
            "Jun 2, 2016",
        ),
        (
            "2016-06-03T18:20:00+00:00",
            "Friday, June 3, 2016 6:20 PM",
            "Jun 3, 2016",
        ),
    ];
    let mut posts = String::new();
    let mut wanted = Vec::new();
    for (index, (message, (machine, title, visible))) in
        ENGLISH.messages.iter().zip(shown).enumerate()
    {
        let profile = format!(
            "https://discuss.example.org/u/{}",
            message.name.replace(' ', "")
        );
        let badge = if message.user_title == "Moderator" {
            "<ul class=\"PostUser-badges badges\"><li class=\"item-group2\"><span class=\"Badge Badge--group--2 \" title=\"Mods\" style=\"background-color: #80349E;\"><i aria-hidden=\"true\" class=\"icon fas fa-bolt Badge-icon\"></i></span></li></ul>"
        } else {
            ""
        };
        let liked = if index % 2 == 1 {
            "<footer class=\"Post-footer\"><ul><li class=\"item-liked\"><div class=\"Post-likedBy\"><i aria-hidden=\"true\" class=\"icon fas fa-thumbs-up\"></i>\
             <a href=\"https://discuss.example.org/u/gina\">gina</a> and <a href=\"https://discuss.example.org/u/henry\">henry</a> like this.</div></li></ul></footer>"
        } else {
            ""
        };
        posts.push_str(&format!(
            "<div class=\"PostStream-item\" data-index=\"{index}\" data-time=\"{machine}\" data-number=\"{number}\" data-id=\"{id}\" data-type=\"comment\">\
             <article class=\"Post CommentPost\"><div><header class=\"Post-header\"><ul><li class=\"item-user\"><div class=\"PostUser\">\
             <h3><a href=\"{profile}\"><span class=\"Avatar \" style=\"--avatar-bg: #a0e5b3;\">{initial}</span><span class=\"username\">{name}</span></a></h3>{badge}</div></li>\
             <li class=\"item-meta\"><div class=\"Dropdown PostMeta\"><a class=\"Dropdown-toggle\" data-toggle=\"dropdown\"><span class=\"PostMeta-number\">#{number}</span>\
             <time pubdate=\"\" datetime=\"{machine}\" title=\"{title}\" data-humantime=\"\">{visible}</time></a></div></li></ul></header>\
             <div class=\"Post-body\">{body}</div><aside class=\"Post-actions\"><ul><li class=\"item-like\"><button class=\"Button Button--link\" type=\"button\"><span class=\"Button-label\">Like</span></button></li>\
             <li class=\"item-reply\"><button class=\"Button Button--link\" type=\"button\"><span class=\"Button-label\">Reply</span></button></li></ul></aside>{liked}</div></article></div>",
            number = index + 1,
            id = 300 + index,
            initial = &message.name[..1],
            name = message.name,
            body = message.html_paragraphs(),
        ));
        wanted.push(Wanted::new(profile, machine.to_string(), &message.text()));
    }
    let body = format!(
        "<div class=\"DiscussionPage\"><header class=\"Hero DiscussionHero\"><div class=\"container\"><ul class=\"DiscussionHero-items\"><li class=\"item-tags\">\
         <span class=\"TagsLabel \"><a class=\"TagLabel \" href=\"https://discuss.example.org/t/networking\"><span class=\"TagLabel-text\">Networking</span></a></span></li>\
         <li class=\"item-title\"><h1 class=\"DiscussionHero-title\">{subject}</h1></li></ul></div></header>\
         <div class=\"container\"><nav class=\"DiscussionPage-nav\"><ul><li class=\"item-controls\"><button class=\"Button\">Reply</button></li></ul></nav>\
         <div class=\"DiscussionPage-stream\"><div class=\"PostStream\" role=\"feed\" aria-live=\"off\">{posts}\
         <div class=\"PostStream-item\"><article class=\"Post ReplyPlaceholder\"><header class=\"Post-header\"><span class=\"Avatar \">G</span> Write a Reply...</header></article></div></div></div></div></div>",
        subject = ENGLISH.subject,
    );
    check(
        EnginePage {
            engine: "Flarum (English, saved by a browser)",
            url: "https://discuss.example.org/d/42-router-drops-the-connection-every-evening",
            language: "en",
            title: "Router drops the connection every evening - Example Discuss",
            body,
        },
        &wanted,
    );
}

#[test]
fn vanilla_in_english() {
    let shown = [
        ("2016-05-04T21:05:00+00:00", "May 4, 2016 9:05PM"),
        ("2016-05-05T08:30:00+00:00", "May 5, 2016 8:30AM"),
        ("2016-05-05T19:45:00+00:00", "May 5, 2016 7:45PM"),
        ("2016-06-02T10:02:00+00:00", "June 2, 2016 10:02AM"),
        ("2016-06-03T18:20:00+00:00", "June 3, 2016 6:20PM"),
    ];
    let mut discussion = String::new();
    let mut comments = String::new();
    let mut wanted = Vec::new();
    for (index, (message, (machine, title))) in ENGLISH.messages.iter().zip(shown).enumerate() {
        let profile = format!(
            "https://vanilla.example.com/profile/{}",
            message.name.replace(' ', "%20")
        );
        let visible = if index < 3 { "May 2016" } else { "June 2016" };
        let header = format!(
            "<div class=\"Item-Header {kind}Header\"><div class=\"AuthorWrap\"><span class=\"Author\">\
             <a title=\"{name}\" href=\"{profile}\" class=\"PhotoWrap\"><img src=\"https://vanilla.example.com/uploads/n{id}.jpg\" alt=\"{name}\" class=\"ProfilePhoto ProfilePhotoMedium\"></a>\
             <a href=\"{profile}\" class=\"Username\">{name}</a></span><span class=\"AuthorInfo\"> <span class=\"MItem RoleTitle\">{title_role}</span> </span></div>\
             <div class=\"Meta {kind}Meta {kind}Info\"><span class=\"MItem DateCreated\"><a href=\"https://vanilla.example.com/discussion/comment/{comment}#Comment_{comment}\" class=\"Permalink\" name=\"Item_{number}\" rel=\"nofollow\">\
             <time title=\"{title}\" datetime=\"{machine}\">{visible}</time></a></span></div></div>\
             <div class=\"Item-BodyWrap\"><div class=\"Item-Body\"><div class=\"Message userContent\">{body}</div></div></div>\
             <div class=\"Reactions\"><a href=\"#\" class=\"ReactButton ReactButton-Like\" title=\"Like\"><span class=\"ReactLabel\">Like</span></a>\
             <a href=\"#\" class=\"ReactButton Quote\" title=\"Quote\"><span class=\"ReactLabel\">Quote</span></a></div>",
            kind = if index == 0 { "Discussion" } else { "Comment" },
            name = message.name,
            id = message.user_id,
            title_role = message.user_title,
            comment = 7000 + index,
            number = index + 1,
            body = message.html_paragraphs(),
        );
        if index == 0 {
            discussion = format!(
                "<div class=\"Item-Header DiscussionHeader\"></div><div class=\"ItemDiscussion\"><div class=\"Discussion\">{header}</div></div>"
            );
        } else {
            comments.push_str(&format!(
                "<li class=\"Item ItemComment {alt}\" id=\"Comment_{comment}\"><div class=\"Comment\"><span class=\"CommentOptions\"></span>{header}</div></li>",
                alt = if index % 2 == 0 { "Alt" } else { "" },
                comment = 7000 + index,
            ));
        }
        wanted.push(Wanted::new(profile, machine.to_string(), &message.text()));
    }
    let body = format!(
        "<div id=\"Content\" class=\"Column ContentColumn\"><div class=\"MessageList Discussion\"><div class=\"PageTitle\"><h1>{subject}</h1></div>{discussion}</div>\
         <div class=\"CommentsWrap\"><span class=\"BeforeCommentHeading\"></span><div class=\"DataBox DataBox-Comments\"><h2 class=\"CommentHeading\">Comments</h2>\
         <ul class=\"MessageList DataList Comments\">{comments}</ul></div></div>\
         <div class=\"MessageForm CommentForm FormTitleWrapper\"><h2 class=\"H\">Leave a Comment</h2><div class=\"CommentFormWrap\"><div class=\"Form-HeaderWrap\"><div class=\"Form-Header\">\
         <span class=\"Author\"><a title=\"Guest\" href=\"https://vanilla.example.com/profile/\" class=\"PhotoWrap\"><img src=\"https://vanilla.example.com/applications/dashboard/design/images/defaulticon.png\" alt=\"Guest\"></a></span></div></div>\
         <div class=\"Form-BodyWrap\"><div class=\"Form-Body\"><form method=\"post\" action=\"/post/comment/?discussionid=42\"><textarea name=\"Body\" class=\"TextBox BodyBox\"></textarea>\
         <input type=\"submit\" class=\"Button Primary CommentButton\" value=\"Post Comment\"></form></div></div></div></div></div>",
        subject = ENGLISH.subject,
    );
    check(
        EnginePage {
            engine: "Vanilla (English)",
            url: "https://vanilla.example.com/discussion/42/router-drops-the-connection-every-evening",
            language: "en",
            title: "Router drops the connection every evening — Vanilla Forums",
            body,
        },
        &wanted,
    );
}

#[test]
fn nodebb_in_spanish() {
    let shown = [
        (
            "2016-05-04T19:05:00.000Z",
            1_462_388_700_000_u64,
            "2016-05-04T19:05:00+00:00",
        ),
        (
            "2016-05-05T06:30:00.000Z",
            1_462_429_800_000,
            "2016-05-05T06:30:00+00:00",
        ),
        (
            "2016-05-05T17:45:00.000Z",
            1_462_470_300_000,
            "2016-05-05T17:45:00+00:00",
        ),
        (
            "2016-06-02T08:02:00.000Z",
            1_464_854_520_000,
            "2016-06-02T08:02:00+00:00",
        ),
    ];
    let mut posts = String::new();
    let mut wanted = Vec::new();
    for (index, (message, (machine, millis, iso))) in SPANISH.messages.iter().zip(shown).enumerate()
    {
        let pid = 101 + index;
        let slug = format!("usuario-{}", message.user_id);
        let (quote_html, quote_text) = if index == 2 {
            (
                "<p><a href=\"/user/usuario-203\" rel=\"nofollow\">@pepe_garcia</a> dijo en <a href=\"/post/102\" rel=\"nofollow\">Tomates con hojas amarillas</a>:</p>\
                 <blockquote><p>Puede ser falta de nitrógeno.</p></blockquote>",
                "@pepe_garcia dijo en Tomates con hojas amarillas: Puede ser falta de nitrógeno. ",
            )
        } else {
            ("", "")
        };
        let signature = if index == 0 {
            format!(
                "<div component=\"post/signature\" data-uid=\"{}\" class=\"post-signature\">{}</div>",
                message.user_id, SPANISH.signature
            )
        } else {
            String::new()
        };
        let group = if message.user_title == "Moderador" {
            "<a href=\"/groups/moderadores\"><small class=\"label group-label inline-block\" style=\"color:#ffffff;background-color: #000000;\">Moderadores</small></a>"
        } else {
            ""
        };
        posts.push_str(&format!(
            "<li component=\"post\" class=\"{owner}\" data-index=\"{index}\" data-pid=\"{pid}\" data-uid=\"{id}\" data-timestamp=\"{millis}\" data-username=\"{name}\" data-userslug=\"{slug}\" itemscope itemtype=\"http://schema.org/Comment\">\
             <a component=\"post/anchor\" data-index=\"{index}\" id=\"{index}\"></a><meta itemprop=\"datePublished\" content=\"{machine}\"><meta itemprop=\"dateModified\" content=\"\">\
             <div class=\"clearfix post-header\"><div class=\"icon pull-left\"><a href=\"/user/{slug}\"><img component=\"user/picture\" data-uid=\"{id}\" src=\"/assets/uploads/profile/{id}.png\" align=\"left\" itemprop=\"image\">\
             <i component=\"user/status\" class=\"fa fa-circle status offline\" title=\"Desconectado\"></i></a></div>\
             <small class=\"pull-left\"><strong><a href=\"/user/{slug}\" itemprop=\"author\" data-username=\"{name}\" data-uid=\"{id}\">{name}</a></strong> {group}\
             <span class=\"visible-xs-inline-block visible-sm-inline-block visible-md-inline-block visible-lg-inline-block\">\
             <a class=\"permalink\" href=\"/post/{pid}\"><span class=\"timeago\" title=\"{machine}\"></span></a>\
             <i component=\"post/edit-indicator\" class=\"fa fa-pencil-square edit-icon hidden\"></i>\
             <small data-editor=\"\" component=\"post/editor\" class=\"hidden\">última edición por <span class=\"timeago\" title=\"\"></span></small></span></small></div><br>\
             <div class=\"content\" component=\"post/content\" itemprop=\"text\">{quote_html}{body}</div>\
             <div class=\"post-footer\">{signature}<div class=\"clearfix\"><small class=\"pull-right\"><span class=\"post-tools\">\
             <a component=\"post/reply\" href=\"#\" class=\"no-select \">Responder</a> <a component=\"post/quote\" href=\"#\" class=\"no-select \">Citar</a></span>\
             <span class=\"votes\"><a component=\"post/upvote\" href=\"#\"><i class=\"fa fa-chevron-up\"></i></a><span component=\"post/vote-count\" data-votes=\"{votes}\">{votes}</span>\
             <a component=\"post/downvote\" href=\"#\"><i class=\"fa fa-chevron-down\"></i></a></span></small></div></div><hr></li>",
            owner = if index == 0 { "topic-owner-post" } else { "" },
            name = message.name,
            id = message.user_id,
            votes = 4 - index,
            body = message.html_paragraphs(),
        ));
        wanted.push(Wanted::new(
            format!("/user/{slug}"),
            iso,
            &format!("{quote_text}{}", message.text()),
        ));
    }
    let body = format!(
        "<div class=\"topic\"><h1 component=\"post/header\" class=\"hidden-xs\" itemprop=\"name\"><span class=\"topic-title\" component=\"topic/title\">{subject}</span></h1>\
         <ul component=\"topic\" class=\"posts\" data-tid=\"12\">{posts}</ul>\
         <div component=\"topic/quickreply/container\" class=\"clearfix quick-reply\"><form method=\"post\" action=\"/compose\">\
         <textarea name=\"content\" component=\"topic/quickreply/text\" class=\"form-control\" rows=\"5\" placeholder=\"Respuesta rápida\"></textarea>\
         <button type=\"submit\" component=\"topic/quickreply/button\" class=\"btn btn-primary pull-right\">Publicar respuesta rápida</button></form></div></div>",
        subject = SPANISH.subject,
    );
    check(
        EnginePage {
            engine: "NodeBB (Spanish)",
            url: "https://comunidad.example.es/topic/12/tomates-con-hojas-amarillas",
            language: "es",
            title: "Tomates con hojas amarillas | Comunidad",
            body,
        },
        &wanted,
    );
}
