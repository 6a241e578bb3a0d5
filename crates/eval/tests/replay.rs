//! The replay harness on small simulated forums.

use std::sync::Arc;

use trawl_eval::{PagePath, ReplayConfig, replay_site};
use trawl_sim::{FamilyName, Scale, Site, SiteConfig};

fn small_site(family: FamilyName, seed: u64) -> Arc<Site> {
    Arc::new(Site::build(SiteConfig::new(family, seed, Scale::Small)))
}

fn config(policy: &str, budget: u32, days: u32, path: PagePath) -> ReplayConfig {
    ReplayConfig {
        stable_days: 10,
        path,
        ..ReplayConfig::new(policy, budget, days)
    }
}

#[test]
fn probe_full() {
    for family in [FamilyName::Phpbb, FamilyName::Vbulletin, FamilyName::Smf] {
        let site = small_site(family, 3);
        for policy in ["trawl", "lws-bc"] {
            let started = std::time::Instant::now();
            let fast = replay_site(Arc::clone(&site), &config(policy, 150, 12, PagePath::Fast)).unwrap();
            let full = replay_site(Arc::clone(&site), &config(policy, 150, 12, PagePath::Full)).unwrap();
            eprintln!("{family:?} {policy}\n fast {:?}\n full {:?} {:.2}s", fast.stage, full.stage, started.elapsed().as_secs_f64());
        }
    }
}
