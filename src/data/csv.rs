//! Numeric CSV files: features in every column but the last, the label in the last.

use std::path::Path;

use super::{parse_error, Dataset};
use crate::Error;

/// Parses numeric CSV text into a [`Dataset`]; `name` is the file name errors report.
///
/// The format:
/// - fields are separated by `,` and may have spaces around them; quoting is not supported
///   (every field must be a number);
/// - every column but the last is a feature, the last is the label;
/// - blank lines are skipped, and so is a leading byte-order mark;
/// - the first non-blank line is a **header**, and is skipped, if any of its fields is not
///   a number (`x0,x1,y`) or if it has a different number of fields from the line after it
///   (scikit-learn's `150,4` style of header);
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

/// Whether the first of `lines` is a header: a non-numeric field, or a field count that
/// differs from the next line's.
fn is_header(lines: &[(usize, &str)]) -> bool {
    let Some((_, first)) = lines.first() else {
        return false;
    };
    let numeric = first.split(',').all(|f| f.trim().parse::<f64>().is_ok());
    let next_width = lines.get(1).map(|(_, l)| l.split(',').count());
    !numeric || next_width.is_some_and(|w| w != first.split(',').count())
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
