//! `trawl bench freshness`: every policy at several budgets.
