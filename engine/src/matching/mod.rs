//! Which rules an event selects: globs and their index, keywords, content
//! patterns, the facts conditions are judged against, the compiled project
//! index, the one event and the query it is judged with, why a rule fired,
//! and that in words.

pub mod conditions;
pub mod content_index;
pub mod describe;
pub mod event;
pub mod explain;
pub mod facts;
pub mod glob;
pub mod glob_index;
pub mod index;
pub mod keywords;
pub mod locate;
pub mod project;
