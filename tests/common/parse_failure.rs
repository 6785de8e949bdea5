//! The parts of an `Error::Parse`, shared by the lessons on reading files.

use micrograd::Error;

/// The `(line, column, message)` of a parse error, or a panic naming what came instead.
pub fn parse_failure<T: std::fmt::Debug>(result: Result<T, Error>) -> (usize, usize, String) {
    match result {
        Err(Error::Parse {
            line,
            column,
            message,
            ..
        }) => (line, column, message),
        other => panic!("expected a parse error, got {other:?}"),
    }
}
