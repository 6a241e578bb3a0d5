use trawl_sim::*;
#[test]
fn smoke() {
    let site = Site::build(SiteConfig::new(FamilyName::Phpbb, 1, Scale::Small));
    let at = HISTORY_END_SECONDS;
    let h = site.history();
    eprintln!("boards {} threads {} posts {} users {}", h.board_count(), h.thread_count(), h.post_count(), h.user_count());
    for url in ["/index.php", "/viewforum.php?f=1", "/viewtopic.php?t=5", "/viewtopic.php?t=5&view=next"] {
        let r = site.serve(url, at, None);
        eprintln!("== {url} {} {:?} {} bytes", r.status, r.headers, r.body.len());
        eprintln!("{:?}", site.classify(url, at));
    }
    let r = site.serve("/viewtopic.php?t=5", at, None);
    std::fs::write("/tmp/t5.html", &r.body).unwrap();
    let r = site.serve("/viewforum.php?f=1", at, None);
    std::fs::write("/tmp/f1.html", &r.body).unwrap();
    let mut n = 0; let mut classes = std::collections::HashMap::new();
    site.for_each_url_truth(at, |t| { n += 1; *classes.entry(format!("{:?}", t.class)).or_insert(0) += 1; });
    eprintln!("{n} urls {classes:?}");
}
