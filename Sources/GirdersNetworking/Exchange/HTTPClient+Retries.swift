import Foundation

/// The exchange's interception and retries (``HTTPClient/exchange(_:destination:progress:)``).
extension HTTPClient {
    /// Runs `attempt` once per try (with the try's number, from 1): the ``interceptors`` adapt the request first (in order), the ``monitors`` hear
    /// of the start and the end (with `head`, the response an outcome carries), and after a failure the
    /// interceptors decide (the first that does not say ``RetryDecision/doNotRetry`` wins) whether to try again, at
    /// once or after a delay. Cancellation is never retried.
    func withRetries<Outcome>(
        _ request: Request, head: (Outcome) -> HTTPResponse,
        _ attempt: (Request, Int) async throws(ResponseError) -> Outcome
    ) async throws(ResponseError) -> Outcome {
        var number = 1
        let call = interceptors.isEmpty ? 0 : InterceptorContext.nextCall()
        while true {
            let context = InterceptorContext(attempt: number, call: call)
            let adapted: Request
            do {
                adapted = interceptors.isEmpty ? request : try await adapt(request, context: context)
            } catch {
                finish(request, .failure(error), context)
                throw error
            }
            for monitor in monitors { monitor.requestWillStart(adapted, attempt: number) }
            let started = monitors.isEmpty ? nil : ContinuousClock.now
            let failure: ResponseError
            do {
                let outcome = try await attempt(adapted, number)
                if started != nil || !interceptors.isEmpty {
                    let response = head(outcome)
                    if let started { report(adapted, number, .success(response), since: started) }
                    finish(adapted, .success(response), context)
                }
                return outcome
            } catch {
                failure = error
            }
            if let started { report(adapted, number, .failure(failure), since: started) }
            finish(adapted, .failure(failure), context)
            if failure.isCancellation { throw failure }
            var decision = RetryDecision.doNotRetry
            for interceptor in interceptors where decision == .doNotRetry {
                decision = await interceptor.retry(adapted, after: failure, context: context)
            }
            switch decision {
            case .doNotRetry: throw failure
            case .fail(let error): throw error
            case .retry: break
            case .retryAfter(let seconds): try await RequestTime.sleep(seconds, url: request.fullURL)
            }
            number += 1
        }
    }

    /// `request` as every interceptor adapted it, in order; an error that is not a ``ResponseError`` becomes
    /// ``ResponseError/interceptorFailed(reason:)``.
    private func adapt(_ request: Request, context: InterceptorContext) async throws(ResponseError) -> Request {
        var adapted = request
        for interceptor in interceptors {
            do {
                adapted = try await interceptor.adapt(adapted, context: context)
            } catch let error as ResponseError {
                throw error
            } catch {
                throw .interceptorFailed(reason: "\(error)")
            }
        }
        return adapted
    }

    /// Tells every interceptor that the attempt of `context` ended.
    private func finish(
        _ request: Request, _ result: Result<HTTPResponse, ResponseError>, _ context: InterceptorContext
    ) {
        for interceptor in interceptors { interceptor.attemptDidFinish(request, result: result, context: context) }
    }

    /// Hands the metrics `sink`'s transport recorded for `request`'s exchange to the monitors.
    func reportMetrics(of sink: ResponseSink, for request: Request, attempt: Int) {
        guard !monitors.isEmpty, let metrics = sink.metrics else { return }
        for monitor in monitors { monitor.requestDidCollectMetrics(request, attempt: attempt, metrics: metrics) }
    }

    private func report(
        _ request: Request, _ attempt: Int, _ result: Result<HTTPResponse, ResponseError>,
        since start: ContinuousClock.Instant
    ) {
        let elapsed = ContinuousClock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        for monitor in monitors {
            monitor.requestDidFinish(request, attempt: attempt, result: result, seconds: seconds)
        }
    }
}
