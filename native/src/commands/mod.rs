pub(crate) mod check;
pub(crate) mod explain;
pub(crate) mod render;
pub(crate) mod shell;
pub(crate) mod status;
pub(crate) mod test;
pub(crate) mod why_not;
