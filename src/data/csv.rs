//! Numeric CSV files: features in every column but the last, the label in the last.

use std::path::Path;

use super::gz::read_maybe_gz;
use super::{parse_error, Dataset};
use crate::Error;

/// Reads a numeric CSV file, plain or gzip-compressed, into a [`Dataset`].
///
/// Gzip is recognised by the file's first two bytes (`1f 8b`), not by its name. The text
/// must be UTF-8 and is read as [`parse_csv`] describes: features in every column but the
/// last, the label in the last, an optional header line, blank lines skipped.
///
/// # Errors
///
/// [`Error::Io`] if the file cannot be read; [`Error::Parse`] (with line and column, both
/// from 1) for anything [`parse_csv`] rejects, for text that is not UTF-8, and for gzip
/// data that does not decompress.
///
/// ```
/// let path = std::env::temp_dir().join(format!("micrograd-doc-{}.csv", std::process::id()));
/// std::fs::write(&path, "x,y,label\n1,2,1\n3,4,-1\n").unwrap();
/// let data = micrograd::data::load_csv(&path)?;
/// assert_eq!((data.len(), data.width()), (2, 2));
/// # std::fs::remove_file(&path).unwrap();
/// # Ok::<(), micrograd::Error>(())
/// ```
pub fn load_csv(path: impl AsRef<Path>) -> Result<Dataset, Error> {
    let path = path.as_ref();
    let bytes = read_maybe_gz(path)?;
    let text = std::str::from_utf8(&bytes).map_err(|e| {
        let before = &bytes[..e.valid_up_to()];
        let line = 1 + before.iter().filter(|&&b| b == b'\n').count();
        let this_line = before.iter().rev().take_while(|&&b| b != b'\n');
        let column = 1 + this_line.filter(|&&b| b == b',').count();
        let message = format!("byte {:#04x} is not UTF-8 text", bytes[e.valid_up_to()]);
        parse_error(path, line, column, message)
    })?;
    parse_csv(text, path)
}

/// Parses numeric CSV text into a [`Dataset`]; `name` is the file name errors report.
///
/// The format:
/// - fields are separated by `,` and may have spaces around them; quoting is not supported
///   (every field must be a number);
/// - every column but the last is a feature, the last is the label;
/// - blank lines are skipped, and so is a leading byte-order mark;
/// - the first non-blank line is a **header**, and is skipped, if any of its fields is not
///   a number (`x0,x1,y`), or if it is scikit-learn's `n_samples,n_features,...` line: a
///   different number of fields from the line after it, and starting with the number of
///   data rows and the number of feature columns that follow (iris: `150,4,setosa,...`);
/// - every other line must have the same number of fields as the first data line, at least
///   two, each a finite number.
///
/// # Errors
///
/// [`Error::Parse`] naming the line and the column (both counting from 1; the column is
/// the field's position) and quoting the offending text: a field that is not a finite
/// number, a row with the wrong number of fields, a file with no data rows.
///
/// ```
/// let text = "x0,x1,y\n0.5,1.0,-1\n\n2,3,1\n";
/// let data = micrograd::data::parse_csv(text, "points.csv")?;
/// assert_eq!(data.inputs, vec![vec![0.5, 1.0], vec![2.0, 3.0]]);
/// assert_eq!(data.labels, vec![-1.0, 1.0]);
///
/// let err = micrograd::data::parse_csv("1,2,3\n4,x,6\n", "bad.csv").unwrap_err();
/// assert_eq!(err.to_string(), "bad.csv:2:2: `x` is not a number");
/// # Ok::<(), micrograd::Error>(())
/// ```
pub fn parse_csv(text: &str, name: impl AsRef<Path>) -> Result<Dataset, Error> {
    let path = name.as_ref();
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let lines: Vec<(usize, &str)> = (1..)
        .zip(text.lines())
        .filter(|(_, line)| !line.trim().is_empty())
        .collect();
    let Some(&(first_line, _)) = lines.first() else {
        return Err(parse_error(path, 0, 0, "the file is empty: no data rows"));
    };
    let skip = usize::from(is_header(&lines));
    let rows = &lines[skip..];
    let Some(&(row_line, row)) = rows.first() else {
        let message = format!("no data rows: line {first_line} is a header and nothing follows");
        return Err(parse_error(path, first_line, 0, message));
    };
    let width = row.split(',').count();
    if width < 2 {
        let message = format!(
            "`{}` has 1 field but a row needs at least 2 (features, then the label)",
            row.trim()
        );
        return Err(parse_error(path, row_line, 0, message));
    }
    let mut data = Dataset {
        inputs: Vec::with_capacity(rows.len()),
        labels: Vec::with_capacity(rows.len()),
    };
    for &(line, text) in rows {
        let mut values = parse_row(text, width, row_line)
            .map_err(|(column, message)| parse_error(path, line, column, message))?;
        data.labels.extend(values.pop());
        data.inputs.push(values);
    }
    Ok(data)
}

/// Whether the first of `lines` is a header: it has a field that is not a number, or it is
/// scikit-learn's `n_samples,n_features[,...]` line (a different width from the next line,
/// and its first two numbers count the data rows and feature columns that follow).
fn is_header(lines: &[(usize, &str)]) -> bool {
    let Some((_, first)) = lines.first() else {
        return false;
    };
    let Ok(numbers) = first
        .split(',')
        .map(|f| f.trim().parse::<f64>())
        .collect::<Result<Vec<f64>, _>>()
    else {
        return true;
    };
    let Some((_, next)) = lines.get(1) else {
        return false;
    };
    let width = next.split(',').count();
    let (rows, features) = ((lines.len() - 1) as f64, width.saturating_sub(1) as f64);
    numbers.len() != width && numbers.len() >= 2 && numbers[..2] == [rows, features]
}

/// The `width` numbers of one row, or the 1-based column and message of the first problem;
/// `width_line` is the line the expected width was taken from.
fn parse_row(text: &str, width: usize, width_line: usize) -> Result<Vec<f64>, (usize, String)> {
    let count = text.split(',').count();
    if count != width {
        let message = format!(
            "found {count} fields but line {width_line} has {width}; every row needs the same number"
        );
        return Err((count.min(width) + 1, message));
    }
    text.split(',')
        .enumerate()
        .map(|(i, field)| parse_number(field.trim()).map_err(|m| (i + 1, m)))
        .collect()
}

/// One field as a finite `f64`.
fn parse_number(field: &str) -> Result<f64, String> {
    match field.parse::<f64>() {
        Ok(x) if x.is_finite() => Ok(x),
        Ok(_) => Err(format!("`{field}` is not a finite number")),
        Err(_) if field.is_empty() => Err("empty field where a number was expected".to_owned()),
        Err(_) => Err(format!("`{field}` is not a number")),
    }
}
