//! Rule Fairy's engine exported to WebAssembly hosts. A thin boundary: each
//! function takes plain strings, converts errors to `JsError`, and holds no
//! logic of its own.
