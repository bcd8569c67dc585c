/**
 * The public front door, {base_url}: one CloudFront distribution.
 *
 *   /api/v2/events/stream  → load balancer (SSE, long-lived)
 *   /realms/*              → load balancer (identity provider)
 *   everything else        → API Gateway
 *
 * Nothing is cached (CachingDisabled); every viewer header, cookie and query string is
 * forwarded. With caching disabled the AllViewer* origin request policies also forward
 * Authorization. API Gateway routes by its own Host name, so its behaviour drops the viewer's
 * Host (AllViewerExceptHostHeader); the container builds its URLs from FSM_AUTH_URL and gets
 * the viewer's Host (AllViewer).
 */
import { Duration, Fn, Validations } from 'aws-cdk-lib';
import type { IHttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import { Certificate } from 'aws-cdk-lib/aws-certificatemanager';
import {
  AllowedMethods,
  type BehaviorOptions,
  CachePolicy,
  Distribution,
  HttpVersion,
  OriginProtocolPolicy,
  OriginRequestPolicy,
  OriginSslPolicy,
  ResponseHeadersPolicy,
  SecurityPolicyProtocol,
  ViewerProtocolPolicy,
} from 'aws-cdk-lib/aws-cloudfront';
import { HttpOrigin, VpcOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import type { IApplicationLoadBalancer } from 'aws-cdk-lib/aws-elasticloadbalancingv2';
import { AaaaRecord, ARecord, HostedZone, RecordTarget } from 'aws-cdk-lib/aws-route53';
import { CloudFrontTarget } from 'aws-cdk-lib/aws-route53-targets';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import type { EnvironmentSettings } from './environments.ts';

/** The paths CloudFront sends to the load balancer instead of API Gateway. */
export const loadBalancerPaths = ['/api/v2/events/stream', '/realms/*', '/health/ready'] as const;

/** CloudFront waits this long between two packets of the origin's answer: above the 30 s SSE heartbeat. */
export const sseOriginReadTimeout = Duration.seconds(60);

export interface EdgeProps {
  settings: EnvironmentSettings;
  httpApi: IHttpApi;
  loadBalancer: IApplicationLoadBalancer;
  logBucket: IBucket;
}

export class Edge extends Construct {
  readonly distribution: Distribution;
  /** `https://…` without trailing slash: the base URL the functions and the container are told. */
  readonly baseUrl: string;

  constructor(scope: Construct, id: string, props: EdgeProps) {
    super(scope, id);
    const { settings } = props;

    // apiEndpoint is `https://{id}.execute-api.{region}.amazonaws.com`; CloudFront wants the host.
    const apiHost = Fn.select(2, Fn.split('/', props.httpApi.apiEndpoint));
    const apiOrigin = new HttpOrigin(apiHost, {
      protocolPolicy: OriginProtocolPolicy.HTTPS_ONLY,
      originSslProtocols: [OriginSslPolicy.TLS_V1_2],
    });
    const loadBalancerOrigin = VpcOrigin.withApplicationLoadBalancer(props.loadBalancer, {
      protocolPolicy: OriginProtocolPolicy.HTTP_ONLY,
      httpPort: 80,
      readTimeout: sseOriginReadTimeout,
      keepaliveTimeout: Duration.seconds(60),
    });

    const uncached = {
      allowedMethods: AllowedMethods.ALLOW_ALL,
      cachePolicy: CachePolicy.CACHING_DISABLED,
      viewerProtocolPolicy: ViewerProtocolPolicy.HTTPS_ONLY,
      responseHeadersPolicy: ResponseHeadersPolicy.SECURITY_HEADERS,
    } satisfies Partial<BehaviorOptions>;
    const toLoadBalancer: BehaviorOptions = {
      ...uncached,
      origin: loadBalancerOrigin,
      originRequestPolicy: OriginRequestPolicy.ALL_VIEWER,
      // An event stream must flow as written, not be buffered for compression.
      compress: false,
    };

    const domain = settings.domain;
    this.distribution = new Distribution(this, 'Distribution', {
      comment: 'Field service: API Gateway, SSE and identity provider',
      priceClass: settings.priceClass,
      httpVersion: HttpVersion.HTTP2_AND_3,
      ...(domain
        ? {
            domainNames: [domain.name],
            certificate: Certificate.fromCertificateArn(this, 'Certificate', domain.certificateArn),
            minimumProtocolVersion: SecurityPolicyProtocol.TLS_V1_2_2021,
          }
        : {}),
      defaultBehavior: {
        ...uncached,
        origin: apiOrigin,
        originRequestPolicy: OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
      },
      additionalBehaviors: Object.fromEntries(loadBalancerPaths.map((path) => [path, toLoadBalancer])),
      ...(settings.webAclArn ? { webAclId: settings.webAclArn } : {}),
      enableLogging: true,
      logBucket: props.logBucket,
      logFilePrefix: 'cloudfront/',
    });

    if (domain?.hostedZone) {
      const zone = HostedZone.fromHostedZoneAttributes(this, 'Zone', {
        hostedZoneId: domain.hostedZone.id,
        zoneName: domain.hostedZone.name,
      });
      const target = RecordTarget.fromAlias(new CloudFrontTarget(this.distribution));
      new ARecord(this, 'AliasV4', { zone, recordName: domain.name, target });
      new AaaaRecord(this, 'AliasV6', { zone, recordName: domain.name, target });
    }

    this.baseUrl = domain ? `https://${domain.name}` : `https://${this.distribution.distributionDomainName}`;

    Validations.of(this.distribution).acknowledge({
      id: 'AwsSolutions-CFR1',
      reason: 'Field teams and their customers may be anywhere; no country is excluded by design.',
    });
    if (!settings.webAclArn) {
      Validations.of(this.distribution).acknowledge({
        id: 'AwsSolutions-CFR2',
        reason:
          'No web ACL configured for this environment: a CLOUDFRONT-scope ACL lives in us-east-1 and is ' +
          'attached by ARN through `webAclArn` in lib/environments.ts. API Gateway throttling and the ' +
          "kernel's authentication still apply.",
      });
    }
    if (!domain) {
      Validations.of(this.distribution).acknowledge({
        id: 'AwsSolutions-CFR4',
        reason:
          'Without a custom domain the distribution uses the default *.cloudfront.net certificate, whose ' +
          'TLS policy cannot be chosen. Set `domain` in lib/environments.ts to get TLSv1.2_2021.',
      });
    }
  }
}
