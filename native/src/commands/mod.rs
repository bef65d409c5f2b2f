pub mod check;
pub mod explain;
pub mod render;
