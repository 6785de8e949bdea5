//! Reading data sets from CSV text and files.

use micrograd::data::{moons100, parse_csv};
use micrograd::Error;

/// The `(line, column, message)` of a parse error, or a panic naming what came instead.
fn parse_failure(result: Result<micrograd::data::Dataset, Error>) -> (usize, usize, String) {
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

// X, y = make_moons(n_samples=100, noise=0.1); y = y*2 - 1
#[test]
fn moons100_is_the_notebooks_hundred_points() {
    let data = moons100();
    assert_eq!((data.len(), data.width()), (100, 2));
    assert!(data.inputs.iter().all(|row| row.len() == 2));
    // make_moons puts n/2 points on each moon.
    assert_eq!(data.labels.iter().filter(|&&y| y == 1.0).count(), 50);
    assert_eq!(data.labels.iter().filter(|&&y| y == -1.0).count(), 50);
    // The first data line of /work/shared/reference/moons100.csv, written by numpy.
    assert_eq!(
        data.inputs[0],
        vec![1.1221146075409685, 0.08147717341718697]
    );
    assert_eq!(data.labels[0], -1.0);
}

#[test]
fn a_header_with_names_is_skipped() {
    let data = parse_csv("x0,x1,y\n1,2,3\n", "t.csv").unwrap();
    assert_eq!(data.inputs, vec![vec![1.0, 2.0]]);
    assert_eq!(data.labels, vec![3.0]);
}

#[test]
fn a_bad_field_names_its_line_column_and_text() {
    let (line, column, message) = parse_failure(parse_csv("1,2,3\n4,5,six\n", "t.csv"));
    assert_eq!((line, column), (2, 3));
    assert!(message.contains("`six`"), "{message}");
}
