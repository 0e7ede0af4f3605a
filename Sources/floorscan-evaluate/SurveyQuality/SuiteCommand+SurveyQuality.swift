extension SuiteCommand {
    /// `--survey-quality`: one ``SurveyQualityTrial`` per chosen dataset, timed.
    /// - Throws: `UJIIndoorLocEvaluationError` naming the file that could not be read or parsed.
    func surveyQualityRows() throws -> [SurveyQualityTable.Row] {
        try chosenFiles.map { dataset, files in
            guard let files else { return SurveyQualityTable.Row(name: dataset.name, trial: nil, seconds: 0) }
            let started = ContinuousClock.now
            let trial = SurveyQualityTrial(
                training: try UJIIndoorLocEvaluation.samples(in: files.train), testing: try UJIIndoorLocEvaluation.samples(in: files.test),
                maximumFolds: folds)
            return SurveyQualityTable.Row(name: dataset.name, trial: trial, seconds: (ContinuousClock.now - started) / .seconds(1))
        }
    }
}
