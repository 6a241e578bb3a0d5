//! The order a crawl's frontier hands out URLs: first in, first out, or by the comprehensive-fetch
//! ranking `trawl patterns` learned from browse logs. The strategy (the learned plan, or
//! breadth-first) still decides which links are followed; the order decides when.
//!
//! The order is part of the crawl, like its strategy: the store keeps its name and the patterns'
//! text, so a rerun resumes in the same order without being told again, even when the patterns
//! file has moved or gone. A rerun that names another order, or other patterns, is refused with
//! the order the crawl holds: changing it halfway would make a crawl that is neither, and its
//! figures would mean nothing.

use trawl_behaviour::{FOLLOW_PROBABILITY, PatternModel, PatternsError};
use trawl_crawl::FrontierPriority;
use trawl_store::StoreLocation;

/// Names of the orders in a store.
const QUEUE_ORDER: &str = "queue";
const BEHAVIOUR_ORDER: &str = "behaviour";

/// Why an order cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum OrderError {
    /// A stored behaviour order lost its patterns.
    #[error("{location} holds a crawl ordered by behaviour without its patterns")]
    BehaviourWithoutPatterns {
        /// The store.
        location: String,
    },
    /// The store names an order this program does not know.
    #[error("{location} holds a crawl with the unknown frontier order {name:?}")]
    Unknown {
        /// The store.
        location: String,
        /// The order's name.
        name: String,
    },
    /// The crawl is ordered by behaviour with other patterns than the ones given.
    #[error(
        "{location} holds a crawl ordered by behaviour with other patterns than the file given; a \
         resumed crawl keeps the patterns it began with (the database holds them): rerun \
         without --order and --patterns, or choose another --db file for a new crawl"
    )]
    OtherPatterns {
        /// The store.
        location: String,
    },
    /// The crawl is ordered otherwise than asked.
    #[error(
        "{location} holds a crawl ordered by {stored}, not by {asked}; a resumed crawl keeps its \
         order: rerun without --order (or with --order {stored}), or choose another --db file \
         for a new crawl"
    )]
    Other {
        /// The store.
        location: String,
        /// The order it holds.
        stored: &'static str,
        /// The order asked for.
        asked: &'static str,
    },
    /// The behaviour order's patterns cannot be read.
    #[error("the patterns of the behaviour order are not usable")]
    UnusablePatterns(#[source] PatternsError),
    /// Patterns learned in process cannot be written.
    #[error("cannot write the patterns")]
    CannotWritePatterns(#[source] serde_json::Error),
}

/// The order a crawl's frontier follows, as the store keeps it.
#[derive(Debug, Clone, PartialEq)]
pub enum CrawlOrder {
    /// First in, first out.
    Queue,
    /// By the value users give each URL's pattern, with the text of the patterns file
    /// (`trawl-patterns/1`).
    Behaviour {
        /// The patterns, as written by `trawl patterns`.
        patterns_json: String,
    },
}

impl CrawlOrder {
    /// The behaviour order of patterns learned in process.
    pub fn of_model(model: &PatternModel) -> Result<CrawlOrder, OrderError> {
        Ok(CrawlOrder::Behaviour {
            patterns_json: serde_json::to_string(model).map_err(OrderError::CannotWritePatterns)?,
        })
    }

    /// The order's name in the store.
    pub fn name(&self) -> &'static str {
        match self {
            CrawlOrder::Queue => QUEUE_ORDER,
            CrawlOrder::Behaviour { .. } => BEHAVIOUR_ORDER,
        }
    }

    /// The patterns of the behaviour order.
    pub fn patterns_json(&self) -> Option<&str> {
        match self {
            CrawlOrder::Queue => None,
            CrawlOrder::Behaviour { patterns_json } => Some(patterns_json),
        }
    }

    /// The order a store names, with the patterns it holds.
    pub fn from_stored(
        db: &StoreLocation,
        name: &str,
        patterns_json: Option<&str>,
    ) -> Result<CrawlOrder, OrderError> {
        match (name, patterns_json) {
            (QUEUE_ORDER, _) => Ok(CrawlOrder::Queue),
            (BEHAVIOUR_ORDER, Some(text)) => Ok(CrawlOrder::Behaviour {
                patterns_json: text.to_string(),
            }),
            (BEHAVIOUR_ORDER, None) => Err(OrderError::BehaviourWithoutPatterns {
                location: db.to_string(),
            }),
            (other, _) => Err(OrderError::Unknown {
                location: db.to_string(),
                name: other.to_string(),
            }),
        }
    }

    /// The frontier priority of this order, `None` for the plain queue.
    pub fn priority(&self) -> Result<Option<FrontierPriority>, OrderError> {
        match self {
            CrawlOrder::Queue => Ok(None),
            CrawlOrder::Behaviour { patterns_json } => {
                let model =
                    PatternModel::from_json(patterns_json).map_err(OrderError::UnusablePatterns)?;
                Ok(Some(priority_of(model)))
            }
        }
    }

    /// Whether two orders rank alike: the same name, and for behaviour the same patterns (read
    /// as JSON, so a file written again with other spacing is still the same patterns).
    fn same_as(&self, other: &CrawlOrder) -> bool {
        match (self.patterns_json(), other.patterns_json()) {
            (Some(mine), Some(theirs)) => {
                let read = |text: &str| serde_json::from_str::<serde_json::Value>(text).ok();
                mine == theirs || read(mine).is_some_and(|value| Some(value) == read(theirs))
            }
            _ => self.name() == other.name(),
        }
    }
}

/// The order a crawl goes on in, from the one its store holds (`None` for a new crawl or one
/// begun before orders were stored) and the one the command asks for; and whether the store
/// must be told it (it named none).
pub fn settled_order(
    db: &StoreLocation,
    stored: Option<CrawlOrder>,
    asked: Option<CrawlOrder>,
) -> Result<(CrawlOrder, bool), OrderError> {
    match (stored, asked) {
        (None, asked) => Ok((asked.unwrap_or(CrawlOrder::Queue), true)),
        (Some(stored), None) => Ok((stored, false)),
        (Some(stored), Some(asked)) if stored.same_as(&asked) => Ok((stored, false)),
        (Some(stored), Some(asked)) if stored.name() == asked.name() => {
            Err(OrderError::OtherPatterns {
                location: db.to_string(),
            })
        }
        (Some(stored), Some(asked)) => Err(OrderError::Other {
            location: db.to_string(),
            stored: stored.name(),
            asked: asked.name(),
        }),
    }
}

/// The comprehensive-fetch priority of `model`: each URL's pattern and score, discounted along
/// chains of one pattern's pages (`PatternModel::crawl_rank`).
pub fn priority_of(model: PatternModel) -> FrontierPriority {
    FrontierPriority::new(move |url: &str| model.crawl_rank(url))
        .with_chain_factor(FOLLOW_PROBABILITY)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn behaviour(patterns: &str) -> CrawlOrder {
        CrawlOrder::Behaviour {
            patterns_json: patterns.to_string(),
        }
    }

    /// Settles `stored` against `asked` and checks the order and whether it is recorded, or
    /// that the refusal names `refusal`.
    fn check(
        stored: Option<CrawlOrder>,
        asked: Option<CrawlOrder>,
        expected: Result<(CrawlOrder, bool), &str>,
    ) {
        let got = settled_order(
            &StoreLocation::parse("crawl.db"),
            stored.clone(),
            asked.clone(),
        );
        match (got, expected) {
            (Ok(got), Ok(expected)) => assert_eq!(got, expected, "{stored:?} {asked:?}"),
            (Err(error), Err(refusal)) => {
                let message = error.to_string();
                assert!(
                    message.contains(refusal) && message.contains("crawl.db"),
                    "{stored:?} {asked:?}: {message}"
                );
            }
            (got, expected) => panic!("{stored:?} {asked:?}: {got:?}, expected {expected:?}"),
        }
    }

    #[test]
    fn a_new_crawl_takes_the_order_asked_for_or_the_queue() {
        check(None, None, Ok((CrawlOrder::Queue, true)));
        check(None, Some(CrawlOrder::Queue), Ok((CrawlOrder::Queue, true)));
        check(None, Some(behaviour("{}")), Ok((behaviour("{}"), true)));
    }

    #[test]
    fn a_resumed_crawl_keeps_its_order_unless_asked_for_another() {
        let patterns = r#"{"format": "trawl-patterns/1", "users": 3}"#;
        check(
            Some(behaviour(patterns)),
            None,
            Ok((behaviour(patterns), false)),
        );
        check(
            Some(CrawlOrder::Queue),
            None,
            Ok((CrawlOrder::Queue, false)),
        );
        check(
            Some(CrawlOrder::Queue),
            Some(CrawlOrder::Queue),
            Ok((CrawlOrder::Queue, false)),
        );
        // The same patterns written again with other spacing are the same patterns.
        check(
            Some(behaviour(patterns)),
            Some(behaviour(r#"{ "users": 3, "format": "trawl-patterns/1" }"#)),
            Ok((behaviour(patterns), false)),
        );
        check(
            Some(behaviour(patterns)),
            Some(CrawlOrder::Queue),
            Err("ordered by behaviour, not by queue"),
        );
        check(
            Some(CrawlOrder::Queue),
            Some(behaviour(patterns)),
            Err("ordered by queue, not by behaviour"),
        );
        check(
            Some(behaviour(patterns)),
            Some(behaviour(r#"{"format": "trawl-patterns/1", "users": 4}"#)),
            Err("other patterns"),
        );
    }

    #[test]
    fn stored_orders_are_read_back_or_refused() {
        let db = &StoreLocation::parse("crawl.db");
        assert_eq!(
            CrawlOrder::from_stored(db, "queue", None).unwrap(),
            CrawlOrder::Queue
        );
        assert_eq!(
            CrawlOrder::from_stored(db, "behaviour", Some("{}")).unwrap(),
            behaviour("{}")
        );
        assert!(CrawlOrder::from_stored(db, "behaviour", None).is_err());
        assert!(CrawlOrder::from_stored(db, "random", None).is_err());
    }
}
