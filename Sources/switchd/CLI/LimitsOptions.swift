import ArgumentParser
import ScanContract

/// `switchd serve`'s limits on what clients may register and compute (``Limits``).
struct LimitsOptions: ParsableArguments {
    @Option(help: "Most tags registered at once; creating one more is refused (409).")
    var maxTags = Limits.defaultMaxTags
    @Option(help: "Most webhook subscriptions at once; creating one more is refused (409).")
    var maxWebhooks = Limits.defaultMaxWebhooks
    @Option(help: "Most readings one POST /v1/locate may carry (422 above it; at most \(LocateRequest.maxReadings)).")
    var maxLocateReadings = Limits.defaultMaxLocateReadings
    @Option(help: ArgumentHelp(
        "Readings one token may have located (POST /v1/locate) per minute.",
        discussion: "Beyond it a request is refused with 429 and Retry-After until the token's budget refills; a minute's worth may be spent at once."
    ))
    var locateReadingsPerMinute = Limits.defaultLocateReadingsPerMinute

    func validate() throws {
        for (name, value) in [("--max-tags", maxTags), ("--max-webhooks", maxWebhooks), ("--locate-readings-per-minute", locateReadingsPerMinute)]
        where value < 1 {
            throw ValidationError("\(name) must be at least 1, got \(value)")
        }
        guard (1...LocateRequest.maxReadings).contains(maxLocateReadings) else {
            throw ValidationError("--max-locate-readings must be from 1 to \(LocateRequest.maxReadings), got \(maxLocateReadings)")
        }
        guard locateReadingsPerMinute >= maxLocateReadings else {
            throw ValidationError("--locate-readings-per-minute (\(locateReadingsPerMinute)) must be at least --max-locate-readings (\(maxLocateReadings))")
        }
    }

    var limits: Limits {
        Limits(
            maxTags: maxTags, maxWebhooks: maxWebhooks, maxLocateReadings: maxLocateReadings, locateReadingsPerMinute: locateReadingsPerMinute
        )
    }
}
