//! The traps of real forums, each one switchable. All are on by default.

/// Which traps a simulated forum sets for crawlers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Traps {
    /// Board lists offered in other sort orders (whole duplicate lists).
    pub sort_orders: bool,
    /// Page 1 of lists also linked as `?page=1` / `&start=0` from the page navigator.
    pub explicit_first_page: bool,
    /// Session ids in URLs for clients that keep no cookie (families with URL sessions).
    pub session_ids: bool,
    /// A permalink per post, answered with the page holding it, a redirect or the post alone.
    pub permalinks: bool,
    /// Printable whole-thread views.
    pub print_views: bool,
    /// Archive views of boards and threads.
    pub archive_views: bool,
    /// Member-only actions (reply, quote, new thread, message) answered with login walls.
    pub login_walls: bool,
    /// "Latest threads" shortcut lists on the portal and board pages.
    pub shortcuts: bool,
    /// Previous/next-thread links on thread pages, beside the page-flipping links.
    pub adjacent_threads: bool,
    /// An endless calendar and an endless search listing.
    pub endless: bool,
    /// User profiles and the member list.
    pub profiles: bool,
    /// Join dates beside posts, last-visit dates and a header clock.
    pub noisy_dates: bool,
    /// Advertisements that change from page to page, and signatures under posts.
    pub ads_and_signatures: bool,
}

/// A trap name that is not one of [`Traps::NAMES`].
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[error("unknown trap {0:?}; the traps are: {names}", names = Traps::NAMES.join(", "))]
pub struct UnknownTrap(pub String);

impl Default for Traps {
    fn default() -> Self {
        Traps::all()
    }
}

impl Traps {
    /// Command-line names of the traps, in declaration order.
    pub const NAMES: [&'static str; 13] = [
        "sort-orders",
        "explicit-first-page",
        "session-ids",
        "permalinks",
        "print-views",
        "archive-views",
        "login-walls",
        "shortcuts",
        "adjacent-threads",
        "endless",
        "profiles",
        "noisy-dates",
        "ads-and-signatures",
    ];

    /// Every trap on.
    pub fn all() -> Self {
        Traps {
            sort_orders: true,
            explicit_first_page: true,
            session_ids: true,
            permalinks: true,
            print_views: true,
            archive_views: true,
            login_walls: true,
            shortcuts: true,
            adjacent_threads: true,
            endless: true,
            profiles: true,
            noisy_dates: true,
            ads_and_signatures: true,
        }
    }

    /// Every trap off: a forum with one URL per page and nothing to avoid.
    pub fn none() -> Self {
        let mut traps = Traps::all();
        for name in Traps::NAMES {
            *traps.flag(name).expect("every listed name has a flag") = false;
        }
        traps
    }

    /// Switches the trap called `name` on or off.
    pub fn set(&mut self, name: &str, on: bool) -> Result<(), UnknownTrap> {
        match self.flag(name) {
            Some(flag) => {
                *flag = on;
                Ok(())
            }
            None => Err(UnknownTrap(name.to_string())),
        }
    }

    /// Whether the trap called `name` is on.
    pub fn is_on(&self, name: &str) -> Option<bool> {
        let mut copy = *self;
        copy.flag(name).map(|flag| *flag)
    }

    fn flag(&mut self, name: &str) -> Option<&mut bool> {
        Some(match name {
            "sort-orders" => &mut self.sort_orders,
            "explicit-first-page" => &mut self.explicit_first_page,
            "session-ids" => &mut self.session_ids,
            "permalinks" => &mut self.permalinks,
            "print-views" => &mut self.print_views,
            "archive-views" => &mut self.archive_views,
            "login-walls" => &mut self.login_walls,
            "shortcuts" => &mut self.shortcuts,
            "adjacent-threads" => &mut self.adjacent_threads,
            "endless" => &mut self.endless,
            "profiles" => &mut self.profiles,
            "noisy-dates" => &mut self.noisy_dates,
            "ads-and-signatures" => &mut self.ads_and_signatures,
            _ => return None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_switch_their_flags() {
        let mut traps = Traps::none();
        assert_eq!(traps.is_on("endless"), Some(false));
        traps.set("endless", true).unwrap();
        assert!(traps.endless);
        assert_eq!(traps.set("nope", true), Err(UnknownTrap("nope".into())));
        for name in Traps::NAMES {
            assert_eq!(Traps::all().is_on(name), Some(true), "{name}");
        }
    }
}
