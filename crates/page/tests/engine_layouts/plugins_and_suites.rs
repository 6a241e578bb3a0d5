//! Forums inside other software and community suites: bbPress (English: each post a header
//! and a body as sibling elements, "May 4, 2016 at 9:05 pm"), wpForo (Spanish: day-first
//! numeric dates, ratings and titles, a quote naming its author), Khoros (French: ranks,
//! kudos counts, "Message N sur M", a similar-topics panel with dates), WoltLab Burning Board 5
//! (German: a thread header naming the starter and the thread's date above the posts, user
//! titles, reaction counts, quotes, a quick-reply box) and Jive (English: the first message
//! marked apart by its root's class, points and levels beside the name, "in response to"
//! lines naming another member, a "More Like This" sidebar) and Kunena 5 in Joomla (French: how
//! long ago each message was written, "il y a 8 ans 10 mois", with the date in `title`, a
//! "topic starter" badge in the first author's box, a row of buttons under every message, a
//! login box).

use crate::check::{EnginePage, Wanted, check};
use crate::threads::{ENGLISH, FRENCH, GERMAN, SPANISH};

#[test]
fn bbpress_in_english() {
    let shown = [
        ("May 4, 2016 at 9:05 pm", "2016-05-04T21:05"),
        ("May 5, 2016 at 8:30 am", "2016-05-05T08:30"),
        ("May 5, 2016 at 7:45 pm", "2016-05-05T19:45"),
        ("June 2, 2016 at 10:02 am", "2016-06-02T10:02"),
    ];
    let mut posts = String::new();
    let mut wanted = Vec::new();
    for (index, (message, (date, iso))) in ENGLISH.messages.iter().zip(shown).enumerate() {
        let post_id = 880 + index;
        let profile = format!(
            "https://www.example.org/forums/users/{}/",
            message.name.to_lowercase().replace(' ', "-")
        );
        let kind = if index == 0 { "topic" } else { "reply" };
        posts.push_str(&format!(
            "<div id=\"post-{post_id}\" class=\"bbp-reply-header\"><div class=\"bbp-meta\"><span class=\"bbp-reply-post-date\">{date}</span>\
             <a href=\"https://www.example.org/forums/topic/router-drops/#post-{post_id}\" class=\"bbp-reply-permalink\">#{post_id}</a>\
             <span class=\"bbp-admin-links\"></span></div></div>\
             <div class=\"loop-item-{index} user-id-{id} bbp-parent-forum-12 bbp-parent-topic-880 bbp-reply-position-{number} {parity} post-{post_id} {kind} type-{kind} status-publish hentry\">\
             <div class=\"bbp-reply-author\"><a href=\"{profile}\" title=\"View {name}&#039;s profile\" class=\"bbp-author-link\"><span class=\"bbp-author-avatar\">\
             <img alt=\"\" src=\"https://secure.gravatar.com/avatar/{id}?s=80\" class=\"avatar avatar-80 photo\" height=\"80\" width=\"80\"></span><br>\
             <span class=\"bbp-author-name\">{name}</span></a><div class=\"bbp-author-role\">{role}</div></div>\
             <div class=\"bbp-reply-content\">{body}</div></div>",
            number = index + 1,
            parity = if index % 2 == 0 { "even" } else { "odd" },
            name = message.name,
            id = message.user_id,
            role = if message.user_title == "Moderator" { "Moderator" } else { "Participant" },
            body = message.html_paragraphs(),
        ));
        wanted.push(Wanted::new(profile, iso, &message.text()));
    }
    let body = format!(
        "<div id=\"bbpress-forums\" class=\"bbpress-wrapper\"><div class=\"bbp-breadcrumb\"><p><a href=\"https://www.example.org/forums/\" class=\"bbp-breadcrumb-root\">Forums</a> \
         <span class=\"bbp-breadcrumb-sep\">&rsaquo;</span> <span class=\"bbp-breadcrumb-current\">{subject}</span></p></div>\
         <div class=\"bbp-template-notice info\"><ul><li class=\"bbp-topic-description\">This topic has 3 replies, 4 voices, and was last updated \
         <a href=\"https://www.example.org/forums/topic/router-drops/#post-883\" title=\"Reply To: {subject}\">8 years, 10 months ago</a> by \
         <a href=\"https://www.example.org/forums/users/davek/\" title=\"View DaveK&#039;s profile\" class=\"bbp-author-link\"><span class=\"bbp-author-name\">DaveK</span></a>.</li></ul></div>\
         <ul id=\"topic-880-replies\" class=\"forums bbp-replies\"><li class=\"bbp-header\"><div class=\"bbp-reply-author\">Author</div><div class=\"bbp-reply-content\">Posts</div></li>\
         <li class=\"bbp-body\">{posts}</li><li class=\"bbp-footer\"><div class=\"bbp-reply-author\">Author</div><div class=\"bbp-reply-content\">Posts</div></li></ul>\
         <div id=\"no-reply-880\" class=\"bbp-no-reply\"><div class=\"bbp-template-notice\"><ul><li>You must be logged in to reply to this topic.</li></ul></div></div></div>",
        subject = ENGLISH.subject,
    );
    check(
        EnginePage {
            engine: "bbPress 2 (English)",
            url: "https://www.example.org/forums/topic/router-drops/",
            language: "en",
            title: "Router drops the connection every evening | Example",
            body,
        },
        &wanted,
    );
}

#[test]
fn wpforo_in_spanish() {
    let shown = [
        ("14/05/2016 9:05 pm", "2016-05-14T21:05"),
        ("15/05/2016 8:30 am", "2016-05-15T08:30"),
        ("15/05/2016 7:45 pm", "2016-05-15T19:45"),
        ("02/06/2016 10:02 am", "2016-06-02T10:02"),
    ];
    let mut posts = String::new();
    let mut wanted = Vec::new();
    for (index, (message, (date, iso))) in SPANISH.messages.iter().zip(shown).enumerate() {
        let post_id = 230 + index;
        let profile = format!(
            "https://jardin.example.es/participant/usuario{}/",
            message.user_id
        );
        let (quote_html, quote_text) = if index == 3 {
            (
                "<blockquote data-userid=\"311\" data-postid=\"232\" data-mention=\"andres\"><div class=\"wpforo-post-quote-author\"><strong> Publicado por: @andres </strong></div>\
                 <p>En maceta conviene esperar a que la tierra se seque un poco.</p></blockquote>",
                "Publicado por: @andres En maceta conviene esperar a que la tierra se seque un poco. ",
            )
        } else {
            ("", "")
        };
        let signature = if index == 0 {
            format!(
                "<div class=\"wpforo-post-signature\">{}</div>",
                SPANISH.signature
            )
        } else {
            String::new()
        };
        posts.push_str(&format!(
            "<div id=\"post-{post_id}\" data-postid=\"{post_id}\" data-userid=\"{id}\" class=\"post-wrap wpfn-{number}\">\
             <div class=\"wpforo-post wpfcl-1\"><div class=\"author\"><div class=\"wpf-left\"><img alt=\"{name}\" src=\"https://jardin.example.es/avatars/{id}.png\" class=\"avatar\" height=\"80\" width=\"80\">\
             <div class=\"author-name\"><a href=\"{profile}\">{name}</a></div><div class=\"author-title\">{title}</div>\
             <div class=\"author-rating-full\"><span class=\"wpf-badge wpf-badge-2\">{stars} estrellas</span></div>\
             <div class=\"author-joined\">Miembro desde: 12/01/2015</div><div class=\"author-posts\">Mensajes: {count}</div></div></div>\
             <div class=\"wpf-right\"><div class=\"wpforo-post-content-top\"><div class=\"wpf-post-date\">{date}</div>\
             <div class=\"wpf-post-link\"><a href=\"https://jardin.example.es/comunidad/tomates/#post-{post_id}\">#{number}</a></div></div>\
             <div class=\"wpforo-post-content\">{quote_html}{body}</div>{signature}\
             <div class=\"bottom\"><div class=\"bleft\"><span class=\"wpf-action wpforo-like\"><i class=\"fas fa-thumbs-up\"></i> Me gusta</span></div>\
             <div class=\"bright\"><span class=\"wpf-action wpforo-quote\"><i class=\"fas fa-quote-left\"></i> Citar</span> <span class=\"wpf-action wpforo-reply\"><i class=\"fas fa-reply\"></i> Responder</span></div></div></div></div></div>",
            number = index + 1,
            name = message.name,
            id = message.user_id,
            title = message.user_title,
            stars = 1 + index % 3,
            count = message.post_count,
            body = message.html_paragraphs(),
        ));
        wanted.push(Wanted::new(
            profile,
            iso,
            &format!("{quote_text}{}", message.text()),
        ));
    }
    let body = format!(
        "<div id=\"wpforo\"><div id=\"wpforo-wrap\" class=\"wpft-topic\"><div class=\"wpf-breadcrumb\"><a href=\"https://jardin.example.es/comunidad/\">Foros</a></div>\
         <div class=\"wpforo-topic-head\"><h1 id=\"wpforo-title\">{subject}</h1></div><div class=\"wpforo-post-head\">Hilo de publicaciones</div>\
         <div class=\"wpfl-1\">{posts}</div><div class=\"wpf-form-wrapper\"><form method=\"post\" class=\"wpforoeditor\"><div class=\"wpf-form-label\">Responder</div>\
         <textarea name=\"postbody\" placeholder=\"Escribe tu respuesta\"></textarea><input type=\"submit\" value=\"Responder\"></form></div></div></div>",
        subject = SPANISH.subject,
    );
    check(
        EnginePage {
            engine: "wpForo (Spanish)",
            url: "https://jardin.example.es/comunidad/huerto/tomates-con-hojas-amarillas/",
            language: "es",
            title: "Tomates con hojas amarillas – Huerto – Comunidad",
            body,
        },
        &wanted,
    );
}

#[test]
fn khoros_in_french() {
    let shown = [
        ("04-05-2016", "21:05", "2016-05-04T21:05"),
        ("05-05-2016", "08:30", "2016-05-05T08:30"),
        ("14-05-2016", "19:45", "2016-05-14T19:45"),
        ("02-06-2016", "10:02", "2016-06-02T10:02"),
    ];
    let mut posts = String::new();
    let mut wanted = Vec::new();
    let total = FRENCH.messages.len();
    for (index, (message, (day, clock, iso))) in FRENCH.messages.iter().zip(shown).enumerate() {
        let id = 1_800_000 + index;
        let profile = format!("/t5/user/viewprofilepage/user-id/{}", message.user_id);
        let signature = if index == 0 {
            format!(
                "<div class=\"lia-message-signature\">{}</div>",
                FRENCH.signature
            )
        } else {
            String::new()
        };
        posts.push_str(&format!(
            "<div class=\"lia-linear-display-message-view\" id=\"lineardisplaymessageviewwrapper_{index}\"><div class=\"MessageView lia-message-view-forum-message lia-message-view-display lia-row-standard-unread lia-thread-topic\">\
             <div class=\"lia-quilt-row lia-quilt-row-header\"><div class=\"lia-quilt-column lia-quilt-column-20-left\"><div class=\"lia-message-author-avatar lia-component-author-avatar lia-component-message-view-widget-author-avatar\">\
             <div class=\"UserAvatar lia-user-avatar lia-component-common-widget-user-avatar\"><a class=\"UserAvatar lia-link-navigation\" href=\"{profile}\"><img class=\"lia-user-avatar-message\" src=\"/t5/image/serverpage/avatar-name/a/{id}\" alt=\"{name}\"></a></div></div>\
             <div class=\"lia-message-author-with-avatar\"><span class=\"UserName lia-user-name lia-user-rank-{rank_class} lia-component-message-view-widget-author-username\">\
             <a class=\"lia-link-navigation lia-page-link lia-user-name-link\" style=\"\" target=\"_self\" aria-label=\"Voir le profil de {name}\" itemprop=\"url\" href=\"{profile}\"><span class=\"\">{name}</span></a></span></div>\
             <div class=\"lia-message-author-rank lia-component-author-rank lia-component-message-view-widget-author-rank\">{title}</div></div>\
             <div class=\"lia-quilt-column lia-quilt-column-04-right\"><div class=\"lia-message-post-date lia-component-post-date-last-edited\" class=\"lia-message-post-date\">\
             <span class=\"DateTime\"><span class=\"local-date\">&lrm;{day}</span> <span class=\"local-time\">{clock}</span></span></div></div></div>\
             <div class=\"lia-quilt-row lia-quilt-row-main\"><div class=\"lia-message-body-wrapper lia-component-message-view-widget-body\"><div itemprop=\"text\" id=\"bodyDisplay_{index}\" class=\"lia-message-body\">\
             <div class=\"lia-message-body-content\">{body}</div></div></div>{signature}</div>\
             <div class=\"lia-quilt-row lia-quilt-row-footer\"><div class=\"lia-message-kudos\"><span class=\"MessageKudosCount lia-component-kudos-widget-message-kudos-count\">{kudos}</span> Félicitations</div>\
             <div class=\"lia-message-footer\"><a class=\"lia-link-navigation lia-page-link\" href=\"/t5/velo/autonomie/m-p/{id}#M{id}\">Message {number} sur {total}</a></div>\
             <div class=\"lia-button-group\"><a class=\"lia-button lia-button-secondary reply-action-link\" href=\"/t5/forums/replypage/message-id/{id}\">Répondre</a></div></div></div></div>",
            number = index + 1,
            rank_class = message.user_title.to_lowercase().replace(' ', "-"),
            name = message.name,
            title = message.user_title,
            kudos = index * 5 + 2,
            body = message.html_paragraphs(),
        ));
        wanted.push(Wanted::new(profile, iso, &message.text()));
    }
    let body = format!(
        "<div class=\"lia-page\"><h1 class=\"PageTitle lia-component-common-widget-page-title\"><span class=\"lia-link-navigation lia-link-disabled\">{subject}</span></h1>\
         <div class=\"linear-message-list message-list\">{posts}</div>\
         <div class=\"lia-panel lia-panel-standard SimilarTopicsTaplet\"><div class=\"lia-decoration-border\"><div class=\"lia-panel-heading-bar-wrapper\"><h2 class=\"lia-panel-heading-bar-title\">Sujets similaires</h2></div>\
         <div class=\"lia-panel-content\"><ul><li><a href=\"/t5/velo/batterie-froid/td-p/17\">Batterie et froid</a> <span class=\"DateTime\"><span class=\"local-date\">&lrm;12-03-2016</span></span></li>\
         <li><a href=\"/t5/velo/autonomie-pluie/td-p/21\">Autonomie sous la pluie</a> <span class=\"DateTime\"><span class=\"local-date\">&lrm;20-04-2016</span></span></li></ul></div></div></div></div>",
        subject = FRENCH.subject,
    );
    check(
        EnginePage {
            engine: "Khoros (French)",
            url: "https://communaute.example.fr/t5/velo/autonomie-en-hiver/td-p/1800000",
            language: "fr",
            title: "Vélo électrique : autonomie en hiver - Communauté",
            body,
        },
        &wanted,
    );
}

#[test]
fn burning_board_5_in_german() {
    let shown = [
        (
            "2016-05-04T21:05:00+02:00",
            1_462_388_700,
            "4. Mai 2016",
            "21:05",
            "2016-05-04T21:05:00+02:00",
        ),
        (
            "2016-05-05T08:30:00+02:00",
            1_462_429_800,
            "5. Mai 2016",
            "08:30",
            "2016-05-05T08:30:00+02:00",
        ),
        (
            "2016-05-05T19:45:00+02:00",
            1_462_470_300,
            "5. Mai 2016",
            "19:45",
            "2016-05-05T19:45:00+02:00",
        ),
        (
            "2016-06-02T10:02:00+02:00",
            1_464_854_520,
            "2. Juni 2016",
            "10:02",
            "2016-06-02T10:02:00+02:00",
        ),
    ];
    let mut posts = String::new();
    let mut wanted = Vec::new();
    for (index, (message, (datetime, timestamp, day, clock, iso))) in
        GERMAN.messages.iter().zip(shown).enumerate()
    {
        let post_id = 9300 + index;
        let profile = format!(
            "https://www.example-wbb.de/user/{}-user{}/",
            message.user_id, message.user_id
        );
        let (quote_html, quote_text) = if index == 2 {
            (
                "<blockquote class=\"quoteBox collapsibleBbcode jsCollapsibleBbcode\" cite=\"https://www.example-wbb.de/thread/12/?postID=9301#post9301\">\
                 <div class=\"quoteBoxIcon\"></div><div class=\"quoteBoxTitle\"><a href=\"https://www.example-wbb.de/thread/12/?postID=9301#post9301\">Zitat von maria_s</a></div>\
                 <div class=\"quoteBoxContent\"><p>Hast du die Heizkörper schon einmal entlüftet?</p></div></blockquote>",
                "Zitat von maria_s Hast du die Heizkörper schon einmal entlüftet? ",
            )
        } else {
            ("", "")
        };
        let signature = if index == 0 {
            format!(
                "<div class=\"messageSignature\"><div class=\"htmlContent\"><p>{}</p></div></div>",
                GERMAN.signature
            )
        } else {
            String::new()
        };
        posts.push_str(&format!(
            "<li id=\"post{post_id}\" class=\"anchorFixedHeader \"><article class=\"wbbPost message messageSidebarOrientationLeft jsClipboardObject jsMessage userOnlineGroupMarking3\" \
             data-post-id=\"{post_id}\" data-can-edit=\"0\" data-object-id=\"{post_id}\" data-user-id=\"{id}\" itemid=\"https://www.example-wbb.de/thread/12/?postID={post_id}#post{post_id}\" itemscope itemtype=\"http://schema.org/Comment\">\
             <aside role=\"presentation\" class=\"messageSidebar member\" itemprop=\"author\" itemscope itemtype=\"http://schema.org/Person\"><div class=\"messageAuthor\">\
             <div class=\"userAvatar\"><a href=\"{profile}\" aria-hidden=\"true\" tabindex=\"-1\"><img src=\"https://www.example-wbb.de/images/avatars/{id}.webp\" width=\"128\" height=\"128\" alt=\"\" class=\"userAvatarImage\"></a></div>\
             <div class=\"messageAuthorContainer\"><a href=\"{profile}\" class=\"username userLink\" data-object-id=\"{id}\" itemprop=\"url\"><span itemprop=\"name\">{name}</span></a></div>\
             <div class=\"userTitle\"><span class=\"badge userTitleBadge\">{title}</span></div><div class=\"userRank\"><img src=\"https://www.example-wbb.de/images/rank/{id}.png\" alt=\"\"></div></div>\
             <div class=\"userCredits\"><dl class=\"plain dataList\"><dt><a href=\"https://www.example-wbb.de/search/?types[]=com.woltlab.wbb.post&amp;userID={id}\" class=\"jsTooltip\">Beiträge</a></dt><dd>{count}</dd>\
             <dt><a href=\"#\" class=\"jsTooltip\">Reaktionen erhalten</a></dt><dd>{reactions}</dd></dl></div></aside>\
             <div class=\"messageContent\"><header class=\"messageHeader\"><div class=\"messageHeaderBox\"><ul class=\"messageHeaderMetaData\"><li>\
             <a href=\"https://www.example-wbb.de/thread/12/?postID={post_id}#post{post_id}\" class=\"permalink messagePublicationTime\">\
             <time datetime=\"{datetime}\" class=\"datetime\" data-timestamp=\"{timestamp}\" data-date=\"{day}\" data-time=\"{clock}\" data-offset=\"7200\">{day}, {clock}</time></a></li></ul>\
             <ul class=\"messageStatus\"></ul></div><ul class=\"messageQuickOptions\"><li><a href=\"https://www.example-wbb.de/thread/12/?postID={post_id}#post{post_id}\">#{number}</a></li></ul></header>\
             <div class=\"messageBody\"><div class=\"messageText\">{quote_html}{body}</div></div>\
             <footer class=\"messageFooter\">{signature}<div class=\"messageFooterNotes\"></div><div class=\"messageFooterGroup\"><ul class=\"messageFooterButtonsExtra buttonList smallButtons jsMobileNavigationExtra\">\
             <li><a href=\"#\" class=\"reactButton jsTooltip button\" title=\"Reagieren\"><span class=\"icon icon16 fa-smile-o\"></span> <span class=\"invisible\">Reagieren</span></a></li></ul>\
             <ul class=\"messageFooterButtons buttonList smallButtons jsMobileNavigation\"><li class=\"jsQuoteMessage\"><a href=\"#\" title=\"Zitieren\" class=\"button jsTooltip\"><span class=\"icon icon16 fa-quote-left\"></span> <span class=\"invisible\">Zitieren</span></a></li></ul></div></footer></div></article></li>",
            number = index + 1,
            name = message.name,
            id = message.user_id,
            title = message.user_title,
            count = message.post_count,
            reactions = message.post_count / 7,
            body = message.html_paragraphs(),
        ));
        wanted.push(Wanted::new(
            profile,
            iso,
            &format!("{quote_text}{}", message.text()),
        ));
    }
    let body = format!(
        "<header class=\"contentHeader messageGroupContentHeader wbbThread\"><div class=\"contentHeaderTitle\"><h1 class=\"contentTitle\">{subject}</h1>\
         <ul class=\"inlineList contentHeaderMetaData\"><li><span class=\"icon icon16 fa-user\"></span> <a href=\"https://www.example-wbb.de/user/77-user77/\" class=\"userLink\">Heizungsbauer</a></li>\
         <li><span class=\"icon icon16 fa-clock-o\"></span> <a href=\"https://www.example-wbb.de/thread/12/\"><time datetime=\"2016-05-04T21:05:00+02:00\" class=\"datetime\">4. Mai 2016, 21:05</time></a></li></ul></div></header>\
         <div class=\"section\"><ul class=\"wbbThreadPostList messageList jsClipboardContainer\" data-type=\"com.woltlab.wbb.post\">{posts}\
         <li class=\"jsQuickReply\"><div class=\"messageQuickReplyContent\"><p>Antworten</p><textarea id=\"text\" name=\"text\" class=\"wysiwygTextarea\"></textarea></div></li></ul></div>",
        subject = GERMAN.subject,
    );
    check(
        EnginePage {
            engine: "WoltLab Burning Board 5 (German)",
            url: "https://www.example-wbb.de/thread/12-heizung-macht-nachts-ger%C3%A4usche/",
            language: "de",
            title: "Heizung macht nachts Geräusche - Haustechnik - Forum",
            body,
        },
        &wanted,
    );
}

#[test]
fn jive_in_english() {
    let shown = [
        ("May 4, 2016 9:05 PM", "2016-05-04T21:05"),
        ("May 5, 2016 8:30 AM", "2016-05-05T08:30"),
        ("May 5, 2016 7:45 PM", "2016-05-05T19:45"),
        ("Jun 2, 2016 10:02 AM", "2016-06-02T10:02"),
    ];
    let mut posts = String::new();
    let mut wanted = Vec::new();
    for (index, (message, (date, iso))) in ENGLISH.messages.iter().zip(shown).enumerate() {
        let id = 66_000 + index;
        let profile = format!("/people/{}", message.name.to_lowercase().replace(' ', "."));
        let in_response = if index > 0 {
            let previous = &ENGLISH.messages[index - 1];
            format!(
                "<span class=\"jive-thread-reply-parent\">in response to <a href=\"/people/{}\" class=\"jiveTT-hover-user jive-username-link\">{}</a></span>",
                previous.name.to_lowercase().replace(' ', "."),
                previous.name
            )
        } else {
            String::new()
        };
        posts.push_str(&format!(
            "<div class=\"jive-thread-{kind} jive-message\" id=\"message-{id}\"><a name=\"{id}\"></a><div class=\"jive-author\">\
             <em class=\"jive-author-avatar-container\"><a href=\"{profile}\" class=\"jiveTT-hover-user jive-avatar\"><img src=\"/people/avatar/{id}.png\" alt=\"{name}\" class=\"jive-avatar\"></a></em>\
             <span class=\"jive-username-link-wrapper\"><a href=\"{profile}\" class=\"jiveTT-hover-user jive-username-link\">{name}</a></span>\
             <span class=\"jive-author-points\"><strong>{points}</strong> points</span><span class=\"jive-author-level\"><img src=\"/images/status/level{level}.gif\" alt=\"\"> {title}</span>\
             <em>Posts: {count}</em><em>Registered: Mar 12, 2009</em></div>\
             <div class=\"jive-message-content\"><div class=\"jive-thread-reply-message\"><div class=\"jive-message-header\">\
             <strong class=\"jive-reply-number\">{number}.</strong> <strong><a href=\"/thread/410?tstart=0#{id}\">Re: {subject}</a></strong> \
             <span class=\"jive-message-date\">{date}</span> {in_response}</div>\
             <div class=\"jive-rendered-content\">{body}</div></div>\
             <div class=\"jive-message-footer\"><ul class=\"jive-message-actions\"><li><a href=\"/post!reply.jspa?messageID={id}\" class=\"jive-icon-reply\">Reply</a></li>\
             <li><a href=\"#\" class=\"jive-icon-helpful\">Helpful</a></li></ul></div></div></div>",
            kind = if index == 0 { "firstmessage" } else { "reply" },
            number = index + 1,
            name = message.name,
            title = message.user_title,
            count = message.post_count,
            points = message.post_count * 5,
            level = 1 + index % 3,
            subject = ENGLISH.subject,
            body = message.html_paragraphs(),
        ));
        wanted.push(Wanted::new(profile, iso, &message.text()));
    }
    let body = format!(
        "<div id=\"jive-body-main\"><div class=\"jive-thread-info\"><h2>{subject}</h2><p>This question is <strong>Answered</strong>. 4 replies Latest reply: \
         <span class=\"jive-message-date\">Jun 2, 2016 10:02 AM</span> by <a href=\"/people/davek\">DaveK</a></p></div>\
         <div class=\"jive-thread-messages\">{posts}</div>\
         <div class=\"jive-sidebar\"><h4>More Like This</h4><ul><li><a href=\"/thread/300\">Router reboots at night</a></li><li><a href=\"/thread/301\">WiFi slow after update</a></li></ul></div></div>",
        subject = ENGLISH.subject,
    );
    check(
        EnginePage {
            engine: "Jive (English)",
            url: "https://community.example.com/thread/410",
            language: "en",
            title: "Router drops the connection every evening | Example Community",
            body,
        },
        &wanted,
    );
}

#[test]
fn kunena_5_in_french() {
    // Kunena shows how long ago a message was written and the date itself in `title`.
    let shown = [
        (
            "il y a 8 ans 10 mois",
            "04 mai 2016 21:05",
            "2016-05-04T21:05",
        ),
        (
            "il y a 8 ans 10 mois",
            "05 mai 2016 08:30",
            "2016-05-05T08:30",
        ),
        (
            "il y a 8 ans 10 mois",
            "05 mai 2016 19:45",
            "2016-05-05T19:45",
        ),
        (
            "il y a 8 ans 10 mois",
            "02 juin 2016 10:02",
            "2016-06-02T10:02",
        ),
    ];
    let mut posts = String::new();
    let mut wanted = Vec::new();
    for (index, (message, (ago, date, iso))) in FRENCH.messages.iter().zip(shown).enumerate() {
        let id = 4401 + index;
        let slug = message.name.to_lowercase().replace(' ', "-");
        let profile = format!("/forum/user/{}-{slug}", message.user_id);
        let starter = if index == 0 {
            "<li><span class=\"topic-starter\">Auteur du sujet</span></li>"
        } else {
            ""
        };
        let signature = if index == 0 {
            format!(
                "<div class=\"ksig\"><hr><span class=\"ksignature\">{}</span></div>",
                FRENCH.signature
            )
        } else {
            String::new()
        };
        posts.push_str(&format!(
            "<div class=\"row message\" id=\"kmessage-{id}\"><div class=\"span2 hidden-phone\"><ul class=\"unstyled center profilebox\">\
             <li><strong><a class=\"kwho-user hasTooltip\" href=\"{profile}\" title=\"Voir le profil de {name}\">{name}</a></strong></li>\
             <li><a class=\"kwho-user\" href=\"{profile}\"><img class=\"img-circle\" src=\"/media/kunena/avatars/resized/size72/{id}.jpg\" alt=\"Avatar de {name}\"></a></li>\
             {starter}<li><span class=\"label label-default\">Hors ligne</span></li><li>{title}</li><li>Messages : {count}</li><li>Remerciements reçus {thanks}</li></ul></div>\
             <div class=\"span10 message-published\"><small class=\"text-muted pull-right hidden-phone\"><span class=\"icon icon-clock\"></span>\
             <span class=\"kdate hasTooltip\" title=\"{date}\">{ago}</span> <a href=\"#{id}\" id=\"{id}\" rel=\"canonical\">#{id}</a></small>\
             <div class=\"horizontal-message\"><div class=\"horizontal-message-top\"><h3 class=\"kmsgtitle\">Re: {subject}</h3></div>\
             <div class=\"kmessage\"><div class=\"kmsg\">{body}</div></div>{signature}</div></div></div>\
             <div class=\"row message-footer\"><div class=\"span10 offset2\"><div class=\"btn-toolbar\">\
             <a class=\"btn btn-small\" href=\"/forum/general/reply/{id}\" rel=\"nofollow\"><i class=\"icon icon-undo\"></i> Répondre</a> \
             <a class=\"btn btn-small\" href=\"/forum/general/reply/{id}?quote=1\" rel=\"nofollow\"><i class=\"icon icon-quote\"></i> Citer</a> \
             <a class=\"btn btn-small\" href=\"/forum/general/report/{id}\" rel=\"nofollow\"><i class=\"icon icon-warning\"></i> Signaler</a></div></div></div>",
            name = message.name,
            title = message.user_title,
            count = message.post_count,
            thanks = message.post_count / 9,
            subject = FRENCH.subject,
            body = message.html_paragraphs(),
        ));
        wanted.push(Wanted::new(profile, iso, &message.text()));
    }
    let body = format!(
        "<div id=\"kunena\" class=\"layout\"><h1>{subject}</h1><div class=\"pull-left\"><ul class=\"pagination\"><li class=\"active\"><a>1</a></li></ul></div>\
         <div class=\"topic-item-messages\">{posts}</div>\
         <div class=\"well well-small\"><h3>Connexion</h3><form action=\"/forum\" method=\"post\"><input type=\"text\" name=\"username\" placeholder=\"Identifiant\">\
         <input type=\"password\" name=\"password\" placeholder=\"Mot de passe\"><button type=\"submit\">Connexion</button></form></div>\
         <div class=\"pull-right large-kicon\"><p>Temps de génération de la page : 0.254 secondes</p></div></div>",
        subject = FRENCH.subject,
    );
    check(
        EnginePage {
            engine: "Kunena 5 (French)",
            url: "https://www.velo-exemple.fr/forum/general/2201-velo-electrique-autonomie-en-hiver",
            language: "fr-FR",
            title: "Vélo électrique : autonomie en hiver - Général - Forum",
            body,
        },
        &wanted,
    );
}
