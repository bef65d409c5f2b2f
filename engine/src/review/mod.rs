//! Review and plan review: the bundle of rules and instruction files that
//! apply to a diff, dedup across it, and the paths a plan names.

pub mod bundle;
pub(crate) mod dedup;
pub(crate) mod plan;
