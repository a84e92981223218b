<#
.SYNOPSIS
    netlint collect vsphere: the network of every ESXi host of one or more
    vSphere clusters, and of standalone ESXi hosts, as built, written as
    one JSON file per cluster (and per standalone host) for
    `netlint import`.

.DESCRIPTION
    Read-only: the script only runs Get-* cmdlets, QueryNetworkHint (a
    query) and `esxcli ... list` through Get-EsxCli -V2. It needs VMware
    PowerCLI (VMware.VimAutomation.Core and .Vds) and a connection made
    with Connect-VIServer, or -Server to make one. Windows PowerShell 5.1
    and PowerShell 7 both run it. Property names are PowerCLI's own
    (PhysicalNic, HostVirtualNic, VirtualSwitch, VDSwitch, VirtualPortGroup,
    VDPortgroup, NicTeamingPolicy, UplinkTeamingPolicy); see docs/import.md.

.EXAMPLE
    Connect-VIServer vc01.contoso.com
    .\collect-vsphere.ps1 -Cluster prod-cl01 -OutDir .\collection
    netlint import .\collection\prod-cl01.vsphere.json tor-a.cfg tor-b.cfg

.EXAMPLE
    # A standalone host (a lab, an edge site, a host before it joins a
    # cluster): connect to the host itself, or name it on a vCenter.
    Connect-VIServer esx-edge01.contoso.com
    .\collect-vsphere.ps1 -OutDir .\collection
    .\collect-vsphere.ps1 -Server vc01.contoso.com -VMHost esx-edge01* -OutDir .\collection
    netlint import .\collection\esx-edge01.contoso.com.vsphere.json
#>
[CmdletBinding()]
param(
    # Clusters to collect (names or wildcards); default: every cluster,
    # and every host in no cluster.
    [string[]] $Cluster = @('*'),
    # Hosts to collect one by one (names or wildcards), each to its own
    # file <host>.vsphere.json, with its cluster named if it is in one:
    # standalone hosts, or one host of a cluster. Connected to an ESXi host
    # itself (Connect-VIServer to the host), that host is collected.
    [string[]] $VMHost,
    # vCenter (or ESXi host) to connect to when no connection is open.
    [string] $Server,
    # Folder the JSON files are written to.
    [string] $OutDir = '.'
)

$ErrorActionPreference = 'Stop'
Set-StrictMode -Version 2.0

if ($Server) { $null = Connect-VIServer -Server $Server }
if (-not $global:DefaultVIServer) { throw 'No vCenter connection: run Connect-VIServer first, or pass -Server.' }
$null = New-Item -ItemType Directory -Force -Path $OutDir

# Text of an enum or $null (ConvertTo-Json would write enums as numbers).
function Text($v) { if ($null -eq $v) { $null } else { "$v" } }
# A list that stays a JSON array even with one item or none.
function List($v) { if ($null -eq $v) { ,@() } else { ,@($v | ForEach-Object { "$_" }) } }

# CDP / LLDP neighbour of every vmnic, from the host's network system.
function Get-NetworkHints($vmhost) {
    $hints = @{}
    try {
        $ns = Get-View -Id $vmhost.ExtensionData.ConfigManager.NetworkSystem
        foreach ($h in @($ns.QueryNetworkHint($null))) {
            $cdp = $null; $lldp = $null
            if ($h.ConnectedSwitchPort) {
                $c = $h.ConnectedSwitchPort
                $cdp = [ordered]@{ DevId = $c.DevId; PortId = $c.PortId; Address = $c.Address;
                                   HardwarePlatform = $c.HardwarePlatform; Mtu = $c.Mtu }
            }
            if ($h.LldpInfo) {
                $l = $h.LldpInfo
                $p = @{}
                foreach ($kv in @($l.Parameter)) { if ($kv) { $p[$kv.Key] = "$($kv.Value)" } }
                $lldp = [ordered]@{ ChassisId = $l.ChassisId; PortId = $l.PortId;
                                    SystemName = $p['System Name']; PortDescription = $p['Port Description'] }
            }
            $hints[$h.Device] = @{ Cdp = $cdp; Lldp = $lldp }
        }
    } catch { Write-Warning "$($vmhost.Name): QueryNetworkHint failed: $($_.Exception.Message)" }
    $hints
}

function Get-Teaming($policy, [switch] $Distributed) {
    if ($null -eq $policy) { return $null }
    if ($Distributed) {
        [ordered]@{ LoadBalancingPolicy = Text $policy.LoadBalancingPolicy
                    ActiveUplinkPort = List $policy.ActiveUplinkPort
                    StandbyUplinkPort = List $policy.StandbyUplinkPort
                    UnusedUplinkPort = List $policy.UnusedUplinkPort }
    } else {
        [ordered]@{ LoadBalancingPolicy = Text $policy.LoadBalancingPolicy
                    ActiveNic = List $policy.ActiveNic
                    StandbyNic = List $policy.StandbyNic
                    UnusedNic = List $policy.UnusedNic
                    IsFailoverOrderInherited = $(if ($policy.PSObject.Properties['IsFailoverOrderInherited']) { $policy.IsFailoverOrderInherited } else { $null }) }
    }
}

function Get-HostNetwork($vmhost) {
    $esxcli = Get-EsxCli -VMHost $vmhost -V2
    $nicList = @{}
    foreach ($n in @($esxcli.network.nic.list.Invoke())) { $nicList[$n.Name] = $n }
    $hints = Get-NetworkHints $vmhost

    $pnics = foreach ($p in @(Get-VMHostNetworkAdapter -VMHost $vmhost -Physical)) {
        $e = $nicList[$p.Name]
        $hint = $hints[$p.Name]
        [ordered]@{
            Name = $p.Name; Mac = $p.Mac; BitRatePerSec = $p.BitRatePerSec; FullDuplex = $p.FullDuplex
            PciId = $p.PciId
            Driver = $(if ($e) { $e.Driver } else { $p.ExtensionData.Driver })
            Description = $(if ($e) { $e.Description } else { $null })
            Cdp = $(if ($hint) { $hint.Cdp } else { $null })
            Lldp = $(if ($hint) { $hint.Lldp } else { $null })
        }
    }

    $vss = foreach ($s in @(Get-VirtualSwitch -VMHost $vmhost -Standard)) {
        [ordered]@{ Name = $s.Name; Mtu = $s.Mtu; Nic = List $s.Nic
                    Teaming = Get-Teaming (Get-NicTeamingPolicy -VirtualSwitch $s) }
    }
    $vssPg = foreach ($g in @(Get-VirtualPortGroup -VMHost $vmhost -Standard)) {
        [ordered]@{ Name = $g.Name; VirtualSwitchName = $g.VirtualSwitchName; VLanId = $g.VLanId
                    Teaming = Get-Teaming (Get-NicTeamingPolicy -VirtualPortGroup $g) }
    }

    $vds = @(); $vdsPg = @()
    foreach ($d in @(Get-VDSwitch -VMHost $vmhost)) {
        # vmnic -> uplink name, from the host's proxy switch of this vDS.
        $proxy = @($vmhost.ExtensionData.Config.Network.ProxySwitch | Where-Object { $_.DvsUuid -eq $d.ExtensionData.Uuid })
        $uplinks = @()
        foreach ($px in $proxy) {
            $names = @{}
            foreach ($u in @($px.UplinkPort)) { if ($u) { $names[$u.Key] = $u.Value } }
            foreach ($b in @($px.Spec.Backing.PnicSpec)) {
                if ($b) { $uplinks += [ordered]@{ Uplink = $names[$b.UplinkPortKey]; Nic = $b.PnicDevice } }
            }
        }
        $lags = @($d.ExtensionData.Config.LacpGroupConfig | Where-Object { $_ } | ForEach-Object { $_.Name })
        $vds += [ordered]@{ Name = $d.Name; Mtu = $d.Mtu; Version = $d.Version
                            LinkDiscoveryProtocol = Text $d.LinkDiscoveryProtocol
                            LacpGroups = List $lags; Uplinks = @($uplinks) }
        foreach ($g in @(Get-VDPortgroup -VDSwitch $d)) {
            if ($g.IsUplink) { continue }
            $vdsPg += [ordered]@{ Name = $g.Name; VDSwitch = $d.Name
                                  VlanConfiguration = Text $g.VlanConfiguration
                                  Teaming = Get-Teaming (Get-VDUplinkTeamingPolicy -VDPortgroup $g) -Distributed }
        }
    }

    $vmk = foreach ($v in @(Get-VMHostNetworkAdapter -VMHost $vmhost -VMKernel)) {
        [ordered]@{ Name = $v.Name; PortGroupName = $v.PortGroupName; Mtu = $v.Mtu
                    ManagementTrafficEnabled = $v.ManagementTrafficEnabled; VMotionEnabled = $v.VMotionEnabled
                    VsanTrafficEnabled = $v.VsanTrafficEnabled; FaultToleranceLoggingEnabled = $v.FaultToleranceLoggingEnabled
                    IP = $v.IP; SubnetMask = $v.SubnetMask; Mac = $v.Mac }
    }

    $bindings = @()
    try {
        foreach ($b in @($esxcli.iscsi.networkportal.list.Invoke())) {
            if ($b) { $bindings += [ordered]@{ Adapter = $b.Adapter; Vmknic = $b.Vmknic } }
        }
    } catch { Write-Verbose "$($vmhost.Name): no software iSCSI adapter" }

    [ordered]@{
        Name = $vmhost.Name; Version = $vmhost.Version; Build = $vmhost.Build
        MemoryTotalGB = $vmhost.MemoryTotalGB; Manufacturer = $vmhost.Manufacturer; Model = $vmhost.Model
        PowerPolicy = $vmhost.ExtensionData.Hardware.CpuPowerManagementInfo.CurrentPolicy
        PhysicalNics = @($pnics); StandardSwitches = @($vss); StandardPortGroups = @($vssPg)
        DistributedSwitches = @($vds); DistributedPortGroups = @($vdsPg)
        VMKernelAdapters = @($vmk); IscsiPortBindings = @($bindings)
    }
}

# Writes one collection file: `$name.vsphere.json` holding `$hosts`, of
# cluster `$clusterName` ($null: a standalone host, in no cluster).
function Write-Collection($name, $clusterName, $hosts) {
    $doc = [ordered]@{
        Collector = 'netlint collect vsphere'; FormatVersion = 1
        CollectedAt = (Get-Date).ToUniversalTime().ToString('s') + 'Z'
        Server = $global:DefaultVIServer.Name; Cluster = $clusterName
        Hosts = @($hosts)
    }
    $file = Join-Path $OutDir ("{0}.vsphere.json" -f ($name -replace '[\\/:*?"<>|]', '_'))
    $doc | ConvertTo-Json -Depth 8 | Set-Content -Path $file -Encoding UTF8
    Write-Host "wrote $file ($(@($hosts).Count) hosts)"
}

# The cluster a host is in, or $null for a standalone host.
function Get-HostCluster($vmhost) {
    $cl = @(Get-Cluster -VMHost $vmhost -ErrorAction SilentlyContinue)
    if ($cl.Count -gt 0) { $cl[0].Name } else { $null }
}

# Each standalone host (or host named with -VMHost) to its own file.
function Write-Standalone($vmhosts) {
    foreach ($h in @($vmhosts | Sort-Object Name)) {
        Write-Verbose "collecting $($h.Name)"
        Write-Collection $h.Name (Get-HostCluster $h) @(Get-HostNetwork $h)
    }
}

if ($global:DefaultVIServer.ProductLine -eq 'embeddedEsx') {
    # Connected to an ESXi host itself: it is the only host there is.
    Write-Standalone @(Get-VMHost)
    return
}
if ($VMHost) {
    Write-Standalone @(Get-VMHost -Name $VMHost)
    if (-not $PSBoundParameters.ContainsKey('Cluster')) { return }
}
foreach ($cl in @(Get-Cluster -Name $Cluster)) {
    $hosts = foreach ($h in @(Get-VMHost -Location $cl | Sort-Object Name)) {
        Write-Verbose "collecting $($h.Name)"
        Get-HostNetwork $h
    }
    Write-Collection $cl.Name $cl.Name @($hosts)
}
if (-not $PSBoundParameters.ContainsKey('Cluster')) {
    # Hosts of the vCenter in no cluster (a host in a datacenter or folder).
    Write-Standalone @(Get-VMHost | Where-Object { $null -eq (Get-HostCluster $_) })
}
