//! Linear regression by the normal equations, W = (XᵀX)⁻¹XᵀY (the list-wise paper's eq. 2).
//!
//! The sums XᵀX and XᵀY are kept rather than the examples, so a model refits in O(d³) whatever
//! the number of examples seen, and a crawl of a year never keeps its training set. A tiny ridge
//! term keeps the system solvable when a feature has not varied yet (every thread alive, say),
//! which would otherwise make XᵀX singular early in a crawl.

use crate::ScheduleError;

/// Running normal equations of a linear model with `dimension` features (the intercept is one of
/// them: pass 1.0 as the first feature).
#[derive(Clone, Debug)]
pub struct NormalEquations {
    dimension: usize,
    gram: Vec<f64>,
    moment: Vec<f64>,
    samples: u64,
}

/// Relative ridge: a thousandth of a percent of the mean diagonal, far below any signal.
const RIDGE: f64 = 1e-8;

impl NormalEquations {
    pub fn new(dimension: usize) -> Self {
        NormalEquations {
            dimension,
            gram: vec![0.0; dimension * dimension],
            moment: vec![0.0; dimension],
            samples: 0,
        }
    }

    pub fn samples(&self) -> u64 {
        self.samples
    }

    /// Adds one example.
    pub fn add(&mut self, features: &[f64], target: f64) {
        debug_assert_eq!(features.len(), self.dimension);
        for row in 0..self.dimension {
            for column in 0..self.dimension {
                self.gram[row * self.dimension + column] += features[row] * features[column];
            }
            self.moment[row] += features[row] * target;
        }
        self.samples += 1;
    }

    /// Solves for the weights (Gaussian elimination with partial pivoting).
    pub fn fit(&self) -> Result<Vec<f64>, ScheduleError> {
        let size = self.dimension;
        if self.samples == 0 {
            return Err(ScheduleError::NoExamples);
        }
        let trace: f64 = (0..size).map(|index| self.gram[index * size + index]).sum();
        let ridge = RIDGE * trace / size as f64;
        let mut matrix: Vec<Vec<f64>> = (0..size)
            .map(|row| {
                let mut line: Vec<f64> = self.gram[row * size..(row + 1) * size].to_vec();
                line[row] += ridge;
                line.push(self.moment[row]);
                line
            })
            .collect();
        for column in 0..size {
            let pivot = (column..size)
                .max_by(|&a, &b| matrix[a][column].abs().total_cmp(&matrix[b][column].abs()))
                .expect("a non-empty range");
            if matrix[pivot][column].abs() < f64::MIN_POSITIVE {
                return Err(ScheduleError::SingularSystem);
            }
            matrix.swap(column, pivot);
            let pivot_row = matrix[column].clone();
            for (row, line) in matrix.iter_mut().enumerate() {
                if row != column {
                    let factor = line[column] / pivot_row[column];
                    if factor != 0.0 {
                        for (value, pivot_value) in line.iter_mut().zip(&pivot_row).skip(column) {
                            *value -= factor * pivot_value;
                        }
                    }
                }
            }
        }
        Ok((0..size)
            .map(|row| matrix[row][size] / matrix[row][row])
            .collect())
    }
}

/// The model's value for one feature vector.
pub fn predict(weights: &[f64], features: &[f64]) -> f64 {
    weights
        .iter()
        .zip(features)
        .map(|(weight, feature)| weight * feature)
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(examples: &[(&[f64], f64)], expected: &[f64]) {
        let mut equations = NormalEquations::new(expected.len());
        for (features, target) in examples {
            equations.add(features, *target);
        }
        let weights = equations.fit().expect("solvable");
        for (got, want) in weights.iter().zip(expected) {
            assert!(
                (got - want).abs() < 1e-5,
                "weights {weights:?}, expected {expected:?}"
            );
        }
    }

    #[test]
    fn recovers_exact_linear_models() {
        // y = 2 + 3x.
        check(
            &[(&[1.0, 0.0], 2.0), (&[1.0, 1.0], 5.0), (&[1.0, 2.0], 8.0)],
            &[2.0, 3.0],
        );
        // y = 1 − x₁ + 0.5 x₂.
        check(
            &[
                (&[1.0, 0.0, 0.0], 1.0),
                (&[1.0, 1.0, 0.0], 0.0),
                (&[1.0, 0.0, 2.0], 2.0),
                (&[1.0, 3.0, 4.0], 0.0),
            ],
            &[1.0, -1.0, 0.5],
        );
    }

    #[test]
    fn least_squares_of_noisy_points() {
        // Points (0,0), (1,1), (2,1), (3,2): slope 0.6, intercept 0.1 by the closed form.
        check(
            &[
                (&[1.0, 0.0], 0.0),
                (&[1.0, 1.0], 1.0),
                (&[1.0, 2.0], 1.0),
                (&[1.0, 3.0], 2.0),
            ],
            &[0.1, 0.6],
        );
    }

    #[test]
    fn a_feature_that_never_varied_gets_no_weight() {
        // The second feature is always 0 (no dead thread seen yet): the ridge keeps it solvable.
        check(
            &[
                (&[1.0, 0.0, 1.0], 3.0),
                (&[1.0, 0.0, 2.0], 5.0),
                (&[1.0, 0.0, 4.0], 9.0),
            ],
            &[1.0, 0.0, 2.0],
        );
    }

    #[test]
    fn no_examples_is_an_error() {
        assert!(matches!(
            NormalEquations::new(2).fit(),
            Err(ScheduleError::NoExamples)
        ));
    }
}
