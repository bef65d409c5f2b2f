//! Which rules an event selects: globs and their index, keywords, content
//! patterns, the facts conditions are judged against, the compiled project
//! index, the one event and the query it is judged with, why a rule fired
//! or did not (the rule found by its name, what a delivery record would do
//! with it), and that in words.

pub(crate) mod candidates;
pub(crate) mod conditions;
pub(crate) mod content_index;
pub(crate) mod describe;
pub(crate) mod event;
pub(crate) mod explain;
pub(crate) mod facts;
pub(crate) mod find_rule;
pub(crate) mod glob;
pub(crate) mod glob_index;
pub(crate) mod held_back;
pub(crate) mod index;
pub(crate) mod keywords;
pub(crate) mod locate;
pub(crate) mod mentions;
pub(crate) mod project;
pub(crate) mod requests;
pub(crate) mod why_not;
