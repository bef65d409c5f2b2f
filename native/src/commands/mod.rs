pub(crate) mod check;
pub(crate) mod explain;
pub(crate) mod render;
pub(crate) mod why_not;
