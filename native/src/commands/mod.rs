pub mod check;
pub mod explain;
