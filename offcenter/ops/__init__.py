"""Operations: serving the app from several processes behind HAProxy, warming them up, their
heap policy and GIL switch interval, and what a failover costs a student (the library's layers
never import this)."""
