//! Statistics of a generated history.
