//! Pages that are not bulletin boards but hold posts all the same: a mailing-list archive's
//! thread page with several messages (RFC 2822 dates, senders linked to a search) and a
//! question-and-answer page (votes, the asker's and answerers' cards with reputation and
//! badges, comments under each post with their own users and dates, a related-questions list).

use crate::check::{EnginePage, Wanted, check};
use crate::threads::ENGLISH;

#[test]
fn mailing_list_thread_page() {
    let dates = [
        (
            "Wed, 04 May 2016 21:05:12 +0200",
            "2016-05-04T21:05:12+02:00",
        ),
        (
            "Thu, 05 May 2016 08:30:00 +0100",
            "2016-05-05T08:30:00+01:00",
        ),
        (
            "Thu, 05 May 2016 19:45:31 +0200",
            "2016-05-05T19:45:31+02:00",
        ),
    ];
    let mut messages = String::new();
    let mut wanted = Vec::new();
    for (index, (message, (date, iso))) in ENGLISH.messages.iter().zip(dates).enumerate() {
        let author = format!(
            "/search?l=netusers&q=from:%22{}%22",
            message.name.replace(' ', "+")
        );
        messages.push_str(&format!(
            "<div class=\"msgHead\"><h1><span class=\"subject\"><a name=\"{index}\" href=\"/netusers/msg0004{index}.html\">Re: {subject}</a></span></h1>\
             <p class=\"darkgray font13\"><span class=\"sender pipe\"><a href=\"{author}\"><span itemprop=\"author\" itemscope itemtype=\"http://schema.org/Person\">\
             <span itemprop=\"name\">{name}</span></span></a></span><span class=\"date\"><a href=\"/search?l=netusers&amp;q=date:20160504\">{date}</a></span></p></div>\
             <div itemprop=\"articleBody\" class=\"msgBody\"><div class=\"pre\">{text}</div></div><div class=\"msgButtons margintopdouble\">\
             <ul class=\"overflow\"><li class=\"icons-email\"><a href=\"mailto:netusers@lists.example.org?Subject=Re%3A\">Reply via email to</a></li></ul></div>",
            subject = ENGLISH.subject,
            name = message.name,
            text = message.paragraphs.join("<br><br>"),
        ));
        wanted.push(Wanted::new(
            author.replace("&amp;", "&"),
            iso,
            &message.text(),
        ));
    }
    let body = format!(
        "<div class=\"aboveMsgBody\"><a href=\"/netusers/\">netusers</a> thread</div><div itemscope itemtype=\"http://schema.org/Article\" class=\"thread\">{messages}</div>\
         <div class=\"tSliceList\"><h2>Thread at a glance:</h2><ul class=\"icons monospace\"><li class=\"icons-email\"><span class=\"subject\"><a href=\"/netusers/msg00040.html\">{subject}</a></span> \
         <span class=\"sender\">Alice Walker</span></li><li class=\"icons-email\"><span class=\"subject\"><a href=\"/netusers/msg00041.html\">Re: {subject}</a></span> \
         <span class=\"sender\">Bob Turner</span></li><li class=\"icons-email\"><span class=\"subject\"><a href=\"/netusers/msg00042.html\">Re: {subject}</a></span> \
         <span class=\"sender\">carol88</span></li></ul></div>",
        subject = ENGLISH.subject,
    );
    check(
        EnginePage {
            engine: "mailing-list archive thread page",
            url: "https://www.mail-archive.example/netusers/msg00040.html",
            language: "en",
            title: "Re: Router drops the connection every evening",
            body,
        },
        &wanted,
    );
}

#[test]
fn question_and_answer_page() {
    struct Entry {
        id: u32,
        votes: i32,
        user: &'static str,
        user_id: u32,
        reputation: &'static str,
        asked: &'static str,
        iso: &'static str,
        body: &'static [&'static str],
        comment: Option<(&'static str, &'static str, &'static str)>,
    }
    let entries = [
        Entry {
            id: 37_000_001,
            votes: 14,
            user: "alice_w",
            user_id: 1021,
            reputation: "3,412",
            asked: "2016-05-04 21:05:12Z",
            iso: "2016-05-04T21:05:12+00:00",
            body: &[
                "My router drops the connection every evening at about eight and only a restart helps.",
                "What logs should I look at to find the cause?",
            ],
            comment: Some((
                "Which firmware version are you on?",
                "eve",
                "2016-05-04 21:30:00Z",
            )),
        },
        Entry {
            id: 37_000_010,
            votes: 21,
            user: "carol88",
            user_id: 3150,
            reputation: "88.1k",
            asked: "2016-05-05 08:30:00Z",
            iso: "2016-05-05T08:30:00+00:00",
            body: &[
                "Turn off the power saving mode of the wireless radio; it stops the radio when the evening traffic peaks.",
            ],
            comment: Some((
                "This fixed it for me, thanks!",
                "DaveK",
                "2016-05-05 09:12:00Z",
            )),
        },
        Entry {
            id: 37_000_042,
            votes: 3,
            user: "Bob Turner",
            user_id: 2207,
            reputation: "121",
            asked: "2016-05-05 19:45:31Z",
            iso: "2016-05-05T19:45:31+00:00",
            body: &[
                "Downgrading to the previous firmware also works if you cannot change the radio settings.",
            ],
            comment: None,
        },
    ];
    let mut answers = String::new();
    let mut question = String::new();
    let mut wanted = Vec::new();
    for (index, entry) in entries.iter().enumerate() {
        let profile = format!(
            "/users/{}/{}",
            entry.user_id,
            entry.user.to_lowercase().replace(' ', "-")
        );
        let comments = match entry.comment {
            Some((text, user, at)) => format!(
                "<div class=\"comments js-comments-container\"><ul class=\"comments-list js-comments-list\"><li class=\"comment js-comment\">\
                 <div class=\"js-comment-actions comment-actions\"><div class=\"comment-score js-comment-score js-comment-edit-hide\"><span class=\"cool\">2</span></div></div>\
                 <div class=\"comment-text js-comment-text-and-form\"><div class=\"comment-body js-comment-edit-hide\"><span class=\"comment-copy\">{text}</span> \
                 &ndash;&nbsp;<div class=\"d-inline-flex ai-center\"><a href=\"/users/77/{user}\" class=\"comment-user\">{user}</a></div>\
                 <span class=\"comment-date\" dir=\"ltr\"><span title=\"{at}\" class=\"relativetime-clean\">May 4, 2016 at 21:30</span></span></div></div></li></ul></div>"
            ),
            None => String::new(),
        };
        let action = if index == 0 { "asked" } else { "answered" };
        let post = format!(
            "<div class=\"post-layout\"><div class=\"votecell post-layout--left\"><div class=\"js-voting-container d-flex jc-center fd-column ai-stretch gs4 fc-black-200\">\
             <button class=\"js-vote-up-btn\" title=\"This is useful\">Up vote</button><div class=\"js-vote-count flex--item d-flex fd-column ai-center fc-black-500 fs-title\" itemprop=\"upvoteCount\" data-value=\"{votes}\">{votes}</div>\
             <button class=\"js-vote-down-btn\" title=\"This is not useful\">Down vote</button></div></div>\
             <div class=\"postcell post-layout--right\"><div class=\"s-prose js-post-body\" itemprop=\"text\">{body}</div>\
             <div class=\"mt24\"><div class=\"d-flex fw-wrap ai-start jc-end gs8 gsy\"><div class=\"flex--item mr16\"><div class=\"js-post-menu pt2\"><div class=\"d-flex gs8 s-anchors s-anchors__muted fw-wrap\">\
             <div class=\"flex--item\"><a href=\"/q/{id}\" rel=\"nofollow\" class=\"js-share-link js-gps-track\">Share</a></div><div class=\"flex--item\"><a href=\"/posts/{id}/edit\" class=\"js-suggest-edit-post\">Improve this {what}</a></div>\
             <div class=\"flex--item\"><button type=\"button\" class=\"s-btn s-btn__link js-follow-post\">Follow</button></div></div></div></div>\
             <div class=\"post-signature owner flex--item\"><div class=\"user-info \"><div class=\"user-action-time\">{action} <span title=\"{asked}\" class=\"relativetime\">May 4, 2016 at 21:05</span></div>\
             <div class=\"user-gravatar32\"><a href=\"{profile}\"><div class=\"gravatar-wrapper-32\"><img src=\"https://www.gravatar.com/avatar/{user_id}?s=64\" alt=\"{user}'s user avatar\" width=\"32\" height=\"32\" class=\"bar-sm\"></div></a></div>\
             <div class=\"user-details\" itemprop=\"author\" itemscope itemtype=\"http://schema.org/Person\"><a href=\"{profile}\">{user}</a><span class=\"d-none\" itemprop=\"name\">{user}</span>\
             <div class=\"-flair\"><span class=\"reputation-score\" title=\"reputation score \" dir=\"ltr\">{reputation}</span><span title=\"4 gold badges\"><span class=\"badge1\"></span><span class=\"badgecount\">4</span></span>\
             <span title=\"21 silver badges\"><span class=\"badge2\"></span><span class=\"badgecount\">21</span></span></div></div></div></div></div></div></div>{comments}</div>",
            votes = entry.votes,
            id = entry.id,
            what = if index == 0 { "question" } else { "answer" },
            user = entry.user,
            user_id = entry.user_id,
            reputation = entry.reputation,
            asked = entry.asked,
            body = entry
                .body
                .iter()
                .map(|paragraph| format!("<p>{paragraph}</p>"))
                .collect::<String>(),
        );
        if index == 0 {
            question = format!(
                "<div class=\"question js-question\" data-questionid=\"{}\" id=\"question\">{post}</div>",
                entry.id
            );
        } else {
            answers.push_str(&format!(
                "<a name=\"{id}\"></a><div id=\"answer-{id}\" class=\"answer js-answer{accepted}\" data-answerid=\"{id}\" itemprop=\"{prop}\" itemscope itemtype=\"https://schema.org/Answer\">{post}</div>",
                id = entry.id,
                accepted = if index == 1 { " accepted-answer" } else { "" },
                prop = if index == 1 { "acceptedAnswer" } else { "suggestedAnswer" },
            ));
        }
        wanted.push(Wanted::new(profile, entry.iso, &entry.body.join(" ")));
    }
    let body = format!(
        "<div id=\"question-header\" class=\"d-flex sm:fd-column\"><h1 itemprop=\"name\" class=\"fs-headline1 ow-break-word mb8 flex--item fl1\">\
         <a href=\"/questions/37000001/router-drops-the-connection-every-evening\" class=\"question-hyperlink\">Router drops the connection every evening</a></h1></div>\
         <div class=\"d-flex fw-wrap pb8 mb16 bb bc-black-075\"><div class=\"flex--item ws-nowrap mr16 mb8\" title=\"2016-05-04 21:05:12Z\"><span class=\"fc-light mr2\">Asked</span>\
         <time itemprop=\"dateCreated\" datetime=\"2016-05-04T21:05:12\">8 years, 11 months ago</time></div><div class=\"flex--item ws-nowrap mb8\" title=\"Viewed 12,345 times\">\
         <span class=\"fc-light mr2\">Viewed</span> 12k times</div></div>\
         <div id=\"mainbar\" role=\"main\" itemscope itemtype=\"https://schema.org/QAPage\"><div itemprop=\"mainEntity\" itemscope itemtype=\"https://schema.org/Question\">{question}\
         <div id=\"answers\"><div id=\"answers-header\"><h2 class=\"mb0\" data-answercount=\"2\">2 Answers <span style=\"display:none;\" itemprop=\"answerCount\">2</span></h2></div>{answers}\
         <form id=\"post-form\" action=\"/questions/37000001/answer/submit\" method=\"post\" class=\"js-add-answer-component post-form\"><h2 class=\"space\">Your Answer</h2>\
         <textarea id=\"wmd-input\" class=\"wmd-input s-input bar0 js-post-body-field\" name=\"post-text\" cols=\"92\" rows=\"15\"></textarea>\
         <button class=\"s-btn s-btn__primary s-btn__icon\" type=\"submit\">Post Your Answer</button></form></div></div></div>\
         <div id=\"sidebar\"><div class=\"module sidebar-related\"><h4 id=\"h-related\">Related</h4><div class=\"related js-gps-related-questions\">\
         <div class=\"spacer\"><a href=\"/q/100\" title=\"Vote score\"><div class=\"answer-votes answered-accepted\">25</div></a><a href=\"/questions/100/wifi-slow\" class=\"question-hyperlink\">WiFi slow after firmware update</a></div>\
         <div class=\"spacer\"><a href=\"/q/101\" title=\"Vote score\"><div class=\"answer-votes\">3</div></a><a href=\"/questions/101/mesh\" class=\"question-hyperlink\">Which mesh system handles roaming best?</a></div></div></div></div>",
    );
    check(
        EnginePage {
            engine: "question-and-answer site",
            url: "https://qa.example.com/questions/37000001/router-drops-the-connection-every-evening",
            language: "en",
            title: "networking - Router drops the connection every evening - Q&A",
            body,
        },
        &wanted,
    );
}
