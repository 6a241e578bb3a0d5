//! Near-duplicate groups on pages of simulated forums, scored against the simulator's truth.
//!
//! Each check samples a small forum of one family (425 to 921 pages): every board page, the pages
//! of every fourth thread and of every other thread longer than a page, the duplicate spellings
//! of those pages the site links to (sort orders, explicit first pages, session ids, one
//! permalink per page, print and archive views, previous/next-thread links), 40 login walls, a
//! few login forms and error pages. The page's role stands in for its layout cluster as the
//! template group. Then it measures:
//!
//! - recall: the share of (duplicate, canonical) pairs in one group, over the duplicates that
//!   are genuine near-copies of their canonical page (a sort order of a one-page board, a print
//!   view of a one-page thread, ...; a print view of a long thread holds every post and is not);
//! - precision: the share of valuable pages whose group holds no other valuable page;
//! - that all login walls share one group, and that no valuable page is in it.

use std::collections::{BTreeMap, HashMap, HashSet};

use trawl_learn::duplicates::{DuplicateGroups, PageText, entropy_informativeness, text_blocks};
use trawl_page::charset::decode_html;
use trawl_page::dom::Document;
use trawl_sim::families::PermalinkStyle;
use trawl_sim::truth::UrlTruth;
use trawl_sim::{Address, FamilyName, PageClass, Role, Route, Scale, Site, SiteConfig, SortOrder};

const SEED: u64 = 20_260_101;

/// Login walls sampled per site.
const LOGIN_WALLS: usize = 40;

/// Permalinks sampled per thread page: a sample drawn by a crawler meets only a few of a page's
/// many permalinks, and the template of a group made mostly of one page's copies would swallow
/// that page's text (see the module documentation of `duplicates`).
const PERMALINKS_PER_PAGE: usize = 1;

/// Login forms (the page a login link leads to) sampled per site, beside the walls.
const LOGIN_FORMS: usize = 3;

/// What the test knows about a sampled page.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Kind {
    Valuable,
    /// A duplicate that shows its canonical page's content; the name of the trap.
    NearCopy(&'static str),
    /// A duplicate the truth names but whose content differs from its canonical page.
    OtherDuplicate(&'static str),
    LoginWall,
    Other,
}

#[derive(Debug)]
struct SampledPage {
    truth: UrlTruth,
    kind: Kind,
}

#[derive(Debug)]
struct Sample {
    pages: Vec<SampledPage>,
    texts: Vec<PageText>,
}

fn role_group(role: Role) -> u32 {
    role as u32
}

/// Pages per list (`board:3`, `thread:17`) among the site's valuable pages.
fn list_lengths(truths: &[UrlTruth]) -> HashMap<String, u32> {
    let mut lengths = HashMap::new();
    for truth in truths {
        if let Some(list) = &truth.list {
            *lengths.entry(list.clone()).or_default() += 1;
        }
    }
    lengths
}

/// Whether a duplicate shows its canonical page's content, and the name of its trap.
fn duplicate_kind(site: &Site, truth: &UrlTruth, lengths: &HashMap<String, u32>) -> Kind {
    let address = site.address_of(&truth.url).expect("the truth's URLs parse");
    let single_page = |list: String| lengths.get(&list).copied().unwrap_or(0) == 1;
    let (name, genuine) = match address.route {
        Route::Board { board, .. } if address.variant.sort != SortOrder::LastPost => {
            ("sort order", single_page(format!("board:{board}")))
        }
        Route::Board { .. } | Route::Thread { .. } if address.variant.session.is_some() => {
            ("session id", true)
        }
        Route::Board { .. } | Route::Thread { .. } => ("explicit first page or alias", true),
        Route::Post { .. } => (
            "permalink",
            site.family().profile().permalink == PermalinkStyle::ShowsThreadPage,
        ),
        Route::Print { thread } => ("print view", single_page(format!("thread:{thread}"))),
        Route::ArchiveThread { thread } => {
            ("thread archive", single_page(format!("thread:{thread}")))
        }
        Route::ArchiveBoard { .. } => ("board archive", false),
        Route::AdjacentThread { .. } => ("previous/next thread", true),
        _ => ("other", false),
    };
    if genuine {
        Kind::NearCopy(name)
    } else {
        Kind::OtherDuplicate(name)
    }
}

/// The URLs of a sample of `site`, with their truth.
fn choose_pages(site: &Site) -> Vec<(UrlTruth, Kind)> {
    let at = site.history().end;
    let mut truths = Vec::new();
    site.for_each_url_truth(at, |truth| truths.push(truth));
    let lengths = list_lengths(&truths);
    // Every board page and the pages of every fourth thread, plus every other thread of more
    // than one page, so that pages of one list are compared with each other.
    let chosen_list = |list: &str| match list.split_once(':') {
        Some(("board", _)) => true,
        Some(("thread", id)) => id
            .parse::<u32>()
            .is_ok_and(|id| id % 4 == 0 || (id % 2 == 0 && lengths[list] > 1)),
        _ => false,
    };
    let walls = login_walls(site, &truths);
    let valuable: HashSet<String> = truths
        .iter()
        .filter(|truth| {
            truth.class == PageClass::Valuable && truth.list.as_deref().is_none_or(&chosen_list)
        })
        .map(|truth| truth.url.clone())
        .collect();
    let mut chosen = Vec::new();
    let mut permalinks: HashMap<String, usize> = HashMap::new();
    let mut login_forms = 0;
    for truth in &truths {
        let kind = match truth.class {
            PageClass::Valuable if valuable.contains(&truth.url) => Kind::Valuable,
            PageClass::Duplicate
                if truth
                    .canonical
                    .as_ref()
                    .is_some_and(|c| valuable.contains(c)) =>
            {
                if truth.role == Role::Post {
                    let seen = permalinks
                        .entry(truth.canonical.clone().unwrap())
                        .or_default();
                    *seen += 1;
                    if *seen > PERMALINKS_PER_PAGE {
                        continue;
                    }
                }
                duplicate_kind(site, truth, &lengths)
            }
            PageClass::Invalid if walls.contains(&truth.url) => Kind::LoginWall,
            PageClass::Invalid if truth.role == Role::Login && login_forms < LOGIN_FORMS => {
                login_forms += 1;
                Kind::Other
            }
            _ => continue,
        };
        chosen.push((truth.clone(), kind));
    }
    // Session-id spellings are never listed (they have no end); make one for every fifth
    // valuable page of families that carry sessions in URLs.
    let mut with_sessions = Vec::new();
    for (index, (truth, _)) in chosen.iter().enumerate() {
        if index % 5 != 0 || !valuable.contains(&truth.url) {
            continue;
        }
        let mut address: Address = site.address_of(&truth.url).expect("valuable URLs parse");
        address.variant.session = Some(0x5eed_0000 + index as u64);
        let spelled = site.url_of(&address);
        let judged = site.classify(&spelled, at);
        if judged.class == PageClass::Duplicate && judged.canonical.as_ref() == Some(&truth.url) {
            with_sessions.push((judged, Kind::NearCopy("session id")));
        }
    }
    chosen.extend(with_sessions);
    // A few missing pages: fixed error prompts.
    for thread in [900_001, 900_002, 900_003] {
        let url = site.url_of(&Address::canonical(Route::Thread { thread, page: 1 }));
        chosen.push((site.classify(&url, at), Kind::Other));
    }
    chosen
}

/// The URLs of [`LOGIN_WALLS`] login walls, spread over the site: the pages that answer an
/// action with a login prompt, or, where the family redirects such actions, the login pages they
/// redirect to (which carry the action as their return path).
fn login_walls(site: &Site, truths: &[UrlTruth]) -> HashSet<String> {
    let at = site.history().end;
    let route_of = |truth: &UrlTruth| site.address_of(&truth.url).map(|address| address.route);
    let actions: Vec<&UrlTruth> = truths
        .iter()
        .filter(|truth| matches!(route_of(truth), Some(Route::Action { .. })))
        .collect();
    let redirected = actions
        .first()
        .is_some_and(|action| (300..400).contains(&site.serve(&action.url, at, None).status));
    let walls: Vec<&UrlTruth> = if redirected {
        truths
            .iter()
            .filter(|truth| matches!(route_of(truth), Some(Route::Login { next: Some(_) })))
            .collect()
    } else {
        actions
    };
    let step = (walls.len() / LOGIN_WALLS).max(1);
    walls
        .iter()
        .step_by(step)
        .take(LOGIN_WALLS)
        .map(|truth| truth.url.clone())
        .collect()
}

/// Fetches the chosen pages and reads their text blocks; redirects are left out, since the
/// learner keeps the page it is redirected to, not the redirect.
fn sample(family: FamilyName) -> Sample {
    let site = Site::build(SiteConfig::new(family, SEED, Scale::Small));
    let at = site.history().end;
    let mut pages = Vec::new();
    let mut texts = Vec::new();
    for (truth, kind) in choose_pages(&site) {
        let answer = site.serve(&truth.url, at, None);
        if (300..400).contains(&answer.status) {
            continue;
        }
        let content_type = answer
            .headers
            .iter()
            .find(|(name, _)| name.eq_ignore_ascii_case("content-type"))
            .map(|(_, value)| value.as_str());
        let html = decode_html(&answer.body, content_type, None).text;
        texts.push(PageText {
            blocks: text_blocks(&Document::parse(&html)),
            template_group: role_group(truth.role),
        });
        pages.push(SampledPage { truth, kind });
    }
    Sample { pages, texts }
}

/// What one family's sample measured.
#[derive(Debug, Default)]
struct Score {
    pages: usize,
    groups: usize,
    near_copies: usize,
    near_copies_found: usize,
    by_trap: BTreeMap<&'static str, (usize, usize)>,
    valuable: usize,
    valuable_alone: usize,
    login_groups: HashSet<usize>,
    valuable_in_login_group: usize,
    valuable_informativeness: f64,
    login_informativeness: f64,
}

impl Score {
    fn recall(&self) -> f64 {
        self.near_copies_found as f64 / self.near_copies.max(1) as f64
    }

    fn precision(&self) -> f64 {
        self.valuable_alone as f64 / self.valuable.max(1) as f64
    }
}

fn score(sample: &Sample, groups: &DuplicateGroups) -> Score {
    let index_of: HashMap<&str, usize> = sample
        .pages
        .iter()
        .enumerate()
        .map(|(index, page)| (page.truth.url.as_str(), index))
        .collect();
    let mut score = Score {
        pages: sample.pages.len(),
        groups: groups.group_count(),
        ..Score::default()
    };
    let mut valuable_per_group: HashMap<usize, usize> = HashMap::new();
    for (index, page) in sample.pages.iter().enumerate() {
        if page.kind == Kind::Valuable {
            *valuable_per_group
                .entry(groups.group_of(index))
                .or_default() += 1;
        }
        if page.kind == Kind::LoginWall {
            score.login_groups.insert(groups.group_of(index));
        }
    }
    for (index, page) in sample.pages.iter().enumerate() {
        let group = groups.group_of(index);
        match page.kind {
            Kind::Valuable => {
                score.valuable += 1;
                score.valuable_alone += usize::from(valuable_per_group[&group] == 1);
                score.valuable_in_login_group += usize::from(score.login_groups.contains(&group));
            }
            Kind::NearCopy(trap) => {
                let canonical = page
                    .truth
                    .canonical
                    .as_deref()
                    .expect("duplicates name one");
                let together = groups.group_of(index_of[canonical]) == group;
                score.near_copies += 1;
                score.near_copies_found += usize::from(together);
                let entry = score.by_trap.entry(trap).or_default();
                entry.0 += usize::from(together);
                entry.1 += 1;
            }
            _ => {}
        }
    }
    let ids_of = |kind: &Kind| {
        let ids: Vec<usize> = sample
            .pages
            .iter()
            .enumerate()
            .filter(|(_, page)| page.kind == *kind)
            .map(|(index, _)| groups.group_of(index))
            .collect();
        ids
    };
    score.valuable_informativeness = entropy_informativeness(ids_of(&Kind::Valuable));
    score.login_informativeness = entropy_informativeness(ids_of(&Kind::LoginWall));
    score
}

fn check(family: FamilyName) {
    let sample = sample(family);
    let groups = DuplicateGroups::find(&sample.texts);
    let score = score(&sample, &groups);
    let report = format!(
        "{}: {} pages in {} groups; near-copy recall {:.3} ({} of {}; by trap {:?}); \
         valuable precision {:.3} ({} of {} alone); login walls in {} group(s), {} valuable \
         page(s) with them; informativeness of valuable pages {:.3}, of login walls {:.3}",
        family.name(),
        score.pages,
        score.groups,
        score.recall(),
        score.near_copies_found,
        score.near_copies,
        score.by_trap,
        score.precision(),
        score.valuable_alone,
        score.valuable,
        score.login_groups.len(),
        score.valuable_in_login_group,
        score.valuable_informativeness,
        score.login_informativeness,
    );
    println!("{report}");
    assert!(score.pages >= 200, "{report}");
    assert!(score.near_copies >= 20, "{report}");
    assert!(score.recall() >= 0.95, "{report}");
    assert!(score.precision() >= 0.99, "{report}");
    assert_eq!(score.login_groups.len(), 1, "{report}");
    assert_eq!(score.valuable_in_login_group, 0, "{report}");
    assert!(score.valuable_informativeness >= 0.99, "{report}");
    assert_eq!(score.login_informativeness, 0.0, "{report}");
}

#[test]
fn phpbb_duplicates_are_grouped() {
    check(FamilyName::Phpbb);
}

#[test]
fn vbulletin_duplicates_are_grouped() {
    check(FamilyName::Vbulletin);
}

#[test]
fn discuz_duplicates_are_grouped() {
    check(FamilyName::Discuz);
}

#[test]
fn smf_duplicates_are_grouped() {
    check(FamilyName::Smf);
}

#[test]
fn xenforo_duplicates_are_grouped() {
    check(FamilyName::Xenforo);
}

#[test]
fn discourse_duplicates_are_grouped() {
    check(FamilyName::Discourse);
}

#[test]
fn tablecraft_duplicates_are_grouped() {
    check(FamilyName::Tablecraft);
}
