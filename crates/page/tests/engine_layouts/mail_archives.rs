//! Message pages of mailing-list archives: one page per mail, the mail's header fields above
//! its body, links to the neighbouring messages by date and by thread around them. Nothing on
//! such a page repeats, so its one post is read from what a post is made of: the sender (a
//! `From:` field, or a bare `<b>` name as pipermail prints it), the `Date:` field and the body,
//! in `<pre>` with the quoted lines of the message it answers, or in paragraphs.

use crate::check::{EnginePage, Wanted, check};
use crate::threads::ENGLISH;

/// Bob's reply as its mail's body is written: an attribution line, the quoted first paragraph
/// of the message it answers, a blank line, then his own text.
fn reply_body() -> (String, String) {
    let quoted = ENGLISH.messages[0].paragraphs[0];
    let own = ENGLISH.messages[1].text();
    let shown = format!("alice_w wrote:\n&gt; {quoted}\n\n{own}\n");
    let text = format!("alice_w wrote: > {quoted} {own}");
    (shown, text)
}

#[test]
fn pipermail_message_with_the_sender_in_a_bare_bold() {
    let (shown, text) = reply_body();
    let subject = ENGLISH.subject;
    let body = format!(
        "<h1>[netusers] Re: {subject}</h1>\n\
         <b>Bob Turner</b>\n<a href=\"mailto:netusers%40lists.example.org?Subject=Re%3A%20%5Bnetusers%5D&amp;In-Reply-To=%3C20160504.1%40example.org%3E\" \
         title=\"[netusers] Re: {subject}\">bob.turner at example.org</a><br>\n\
         <i>Thu May  5 08:30:00 UTC 2016</i>\n\
         <p><ul>\n<li>Previous message: <a href=\"000041.html\">[netusers] {subject}</a></li>\n\
         <li>Next message: <a href=\"000043.html\">[netusers] Re: {subject}</a></li>\n\
         <li> <b>Messages sorted by:</b> <a href=\"date.html#42\">[ date ]</a> <a href=\"thread.html#42\">[ thread ]</a> \
         <a href=\"subject.html#42\">[ subject ]</a> <a href=\"author.html#42\">[ author ]</a></li>\n</ul>\n\
         <hr>\n<!--beginarticle-->\n<pre>{shown}</pre>\n<!--endarticle-->\n<hr>\n\
         <p><ul>\n<!--threads-->\n<li>Previous message: <a href=\"000041.html\">[netusers] {subject}</a></li>\n\
         <li>Next message: <a href=\"000043.html\">[netusers] Re: {subject}</a></li>\n</ul>\n\
         <hr>\n<a href=\"http://lists.example.org/mailman/listinfo/netusers\">More information about the netusers mailing list</a><br>\n"
    );
    check(
        EnginePage {
            engine: "pipermail message page",
            url: "http://lists.example.org/pipermail/netusers/2016-May/000042.html",
            language: "en",
            title: "[netusers] Re: Router drops the connection every evening",
            body,
        },
        &[Wanted::new(
            "Bob Turner",
            "2016-05-05T08:30:00+00:00",
            &text,
        )],
    );
}

#[test]
fn mhonarc_message_with_a_header_list_over_pre() {
    let (shown, text) = reply_body();
    let subject = ENGLISH.subject;
    let body = format!(
        "<!--X-Body-Begin-->\n<!--X-User-Header-->\n<!--X-User-Header-End-->\n\
         <!--X-TopPNI-->\n<hr>\n[<a href=\"msg00041.html\">Date Prev</a>][<a href=\"msg00043.html\">Date Next</a>]\
         [<a href=\"msg00041.html\">Thread Prev</a>][<a href=\"msg00043.html\">Thread Next</a>]\
         [<a href=\"maillist.html#00042\">Date Index</a>][<a href=\"threads.html#00042\">Thread Index</a>]\n\
         <!--X-TopPNI-End-->\n<!--X-MsgBody-->\n<!--X-Subject-Header-Begin-->\n<h1>Re: {subject}</h1>\n<hr>\n\
         <!--X-Subject-Header-End-->\n<!--X-Head-of-Message-->\n<ul>\n\
         <li><em>From</em>: Bob Turner &lt;bob.turner@example.org&gt;</li>\n\
         <li><em>Date</em>: Thu, 05 May 2016 08:30:00 +0100</li>\n\
         <li><em>Subject</em>: Re: {subject}</li>\n</ul>\n<!--X-Head-of-Message-End-->\n\
         <!--X-Head-Body-Sep-Begin-->\n<hr>\n<!--X-Head-Body-Sep-End-->\n<!--X-Body-of-Message-->\n\
         <pre>{shown}</pre>\n<!--X-Body-of-Message-End-->\n<!--X-MsgBody-End-->\n<!--X-Follow-Ups-->\n<hr>\n\
         <ul><li><strong>Follow-Ups</strong>:\n<ul>\n<li><strong><a name=\"00043\" href=\"msg00043.html\">Re: {subject}</a></strong>\n\
         <ul><li><em>From:</em> carol88 &lt;carol88@example.org&gt;</li></ul></li>\n</ul></li></ul>\n\
         <!--X-Follow-Ups-End-->\n<!--X-References-->\n<ul><li><strong>References</strong>:\n<ul>\n\
         <li><strong><a name=\"00041\" href=\"msg00041.html\">{subject}</a></strong>\n\
         <ul><li><em>From:</em> alice_w &lt;alice@example.org&gt;</li></ul></li>\n</ul></li></ul>\n\
         <!--X-References-End-->\n<!--X-BotPNI-->\n<ul>\n<li>Prev by Date:\n<strong><a href=\"msg00041.html\">{subject}</a></strong>\n</li>\n\
         <li>Next by Date:\n<strong><a href=\"msg00043.html\">Re: {subject}</a></strong>\n</li>\n\
         <li>Index(es):\n<ul>\n<li><a href=\"maillist.html#00042\"><strong>Date</strong></a></li>\n\
         <li><a href=\"threads.html#00042\"><strong>Thread</strong></a></li>\n</ul>\n</li>\n</ul>\n<!--X-BotPNI-End-->\n"
    );
    check(
        EnginePage {
            engine: "MHonArc message page",
            url: "http://lists.example.org/archives/netusers/msg00042.html",
            language: "en",
            title: "Re: Router drops the connection every evening",
            body,
        },
        &[Wanted::new(
            "Bob Turner",
            "2016-05-05T08:30:00+01:00",
            &text,
        )],
    );
}

#[test]
fn hypermail_message_with_labelled_fields_and_paragraphs() {
    let subject = ENGLISH.subject;
    let carol = &ENGLISH.messages[2];
    let paragraphs: String = carol
        .paragraphs
        .iter()
        .map(|paragraph| format!("<p>{paragraph}</p>\n"))
        .collect();
    let body = format!(
        "<div class=\"head\">\n<h1>Re: {subject}</h1>\n\
         <!-- received=\"Thu May  5 19:45:31 2016\" -->\n\
         <!-- isoreceived=\"20160505194531\" -->\n<!-- id=\"20160505.3@example.org\" -->\n</div>\n\
         <address class=\"headers\">\n<span id=\"from\">\n<dfn>From</dfn>: carol88 &lt;<a href=\"mailto:carol88_at_example.org?Subject=Re%3A%20Router\">carol88_at_example.org</a>&gt;\n</span><br />\n\
         <span id=\"date\"><dfn>Date</dfn>: Thu, 05 May 2016 19:45:31 +0200</span><br />\n</address>\n\
         <ul class=\"links\">\n<li><dfn>Next message</dfn>: <a href=\"0044.html\">DaveK: \"Re: {subject}\"</a></li>\n\
         <li><dfn>Previous message</dfn>: <a href=\"0042.html\">Bob Turner: \"Re: {subject}\"</a></li>\n\
         <li><dfn>In reply to</dfn>: <a href=\"0042.html\">Bob Turner: \"Re: {subject}\"</a></li>\n</ul>\n\
         <!-- body=\"start\" -->\n<div class=\"mail\">\n{paragraphs}</div>\n<!-- body=\"end\" -->\n<hr />\n\
         <ul class=\"links\">\n<li><strong>Next message:</strong> <a href=\"0044.html\">DaveK: \"Re: {subject}\"</a></li>\n\
         <li><strong>Maybe reply:</strong> <a href=\"0045.html\">eve: \"Re: {subject}\"</a></li>\n\
         <li><strong>Messages sorted by:</strong> <a href=\"date.html#43\">[ date ]</a> <a href=\"index.html#43\">[ thread ]</a> \
         <a href=\"subject.html#43\">[ subject ]</a> <a href=\"author.html#43\">[ author ]</a></li>\n</ul>\n\
         <!-- trailer=\"footer\" -->\n<p><small><em>This archive was generated by hypermail 2.3.0</em></small></p>\n"
    );
    check(
        EnginePage {
            engine: "hypermail message page",
            url: "http://lists.example.org/hypermail/netusers/0043.html",
            language: "en",
            title: "Re: Router drops the connection every evening",
            body,
        },
        &[Wanted::new(
            "carol88",
            "2016-05-05T19:45:31+02:00",
            &carol.text(),
        )],
    );
}
