//! Peers and data sets for the comparison.
